from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="InterfaceRequest")


@_attrs_define
class InterfaceRequest:
    """One underlay interface; enclave_agent.grammar.interface is the one definition of valid (the fields
    state its spelling for the schema; iproute2 keywords such as `up` are refused as names too).

        Attributes:
            name (str): Linux interface name, e.g. em1
            address (str): Address with prefix length, e.g. 10.0.0.5/24
            gateway (None | str | Unset): IPv4 next hop
    """

    name: str
    address: str
    gateway: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        address: str
        address = self.address

        gateway: None | str | Unset
        if isinstance(self.gateway, Unset):
            gateway = UNSET
        else:
            gateway = self.gateway

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "address": address,
            }
        )
        if gateway is not UNSET:
            field_dict["gateway"] = gateway

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        def _parse_address(data: object) -> str:
            return cast(str, data)

        address = _parse_address(d.pop("address"))

        def _parse_gateway(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        gateway = _parse_gateway(d.pop("gateway", UNSET))

        interface_request = cls(
            name=name,
            address=address,
            gateway=gateway,
        )

        return interface_request
