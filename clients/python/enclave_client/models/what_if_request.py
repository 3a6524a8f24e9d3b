from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.what_if_protocol_enum import WhatIfProtocolEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="WhatIfRequest")


@_attrs_define
class WhatIfRequest:
    """
    Attributes:
        source (str): An IP address in canonical form, e.g. 10.0.0.1 or fd00::1
        destination (str): An IP address in canonical form, e.g. 10.0.0.1 or fd00::1
        protocol (WhatIfProtocolEnum): * `tcp` - tcp
            * `udp` - udp
            * `icmp` - icmp
        port (int | None | Unset):
    """

    source: str
    destination: str
    protocol: WhatIfProtocolEnum
    port: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        source: str
        source = self.source

        destination: str
        destination = self.destination

        protocol = self.protocol.value

        port: int | None | Unset
        if isinstance(self.port, Unset):
            port = UNSET
        else:
            port = self.port

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "source": source,
                "destination": destination,
                "protocol": protocol,
            }
        )
        if port is not UNSET:
            field_dict["port"] = port

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_source(data: object) -> str:
            return cast(str, data)

        source = _parse_source(d.pop("source"))

        def _parse_destination(data: object) -> str:
            return cast(str, data)

        destination = _parse_destination(d.pop("destination"))

        protocol = WhatIfProtocolEnum(d.pop("protocol"))

        def _parse_port(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        port = _parse_port(d.pop("port", UNSET))

        what_if_request = cls(
            source=source,
            destination=destination,
            protocol=protocol,
            port=port,
        )

        what_if_request.additional_properties = d
        return what_if_request

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
