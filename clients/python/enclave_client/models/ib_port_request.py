from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="IbPortRequest")


@_attrs_define
class IbPortRequest:
    """One InfiniBand HCA port of the node (schema 2, optional): its GUID joins the tenants' partitions.

    Attributes:
        device (str): e.g. mlx5_0
        port (int):
        guid (str): 0x and 16 lower-case hex digits
        netdev (None | str | Unset): The port's IPoIB interface, null when it has none
    """

    device: str
    port: int
    guid: str
    netdev: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        device = self.device

        port = self.port

        guid = self.guid

        netdev: None | str | Unset
        if isinstance(self.netdev, Unset):
            netdev = UNSET
        else:
            netdev = self.netdev

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "device": device,
                "port": port,
                "guid": guid,
            }
        )
        if netdev is not UNSET:
            field_dict["netdev"] = netdev

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        device = d.pop("device")

        port = d.pop("port")

        guid = d.pop("guid")

        def _parse_netdev(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        netdev = _parse_netdev(d.pop("netdev", UNSET))

        ib_port_request = cls(
            device=device,
            port=port,
            guid=guid,
            netdev=netdev,
        )

        return ib_port_request
