from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.service_protocol_enum import ServiceProtocolEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="PatchedServiceRequest")


@_attrs_define
class PatchedServiceRequest:
    """
    Attributes:
        name (str | Unset):
        protocol (ServiceProtocolEnum | Unset): * `tcp` - TCP
            * `udp` - UDP
            * `icmp` - ICMP
            * `any` - Any
        ports (str | Unset): Comma-separated ports and ranges, e.g. 22,6817-6819
        description (str | Unset):
    """

    name: str | Unset = UNSET
    protocol: ServiceProtocolEnum | Unset = UNSET
    ports: str | Unset = UNSET
    description: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        protocol: str | Unset = UNSET
        if not isinstance(self.protocol, Unset):
            protocol = self.protocol.value

        ports = self.ports

        description = self.description

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if protocol is not UNSET:
            field_dict["protocol"] = protocol
        if ports is not UNSET:
            field_dict["ports"] = ports
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name", UNSET)

        _protocol = d.pop("protocol", UNSET)
        protocol: ServiceProtocolEnum | Unset
        if isinstance(_protocol, Unset):
            protocol = UNSET
        else:
            protocol = ServiceProtocolEnum(_protocol)

        ports = d.pop("ports", UNSET)

        description = d.pop("description", UNSET)

        patched_service_request = cls(
            name=name,
            protocol=protocol,
            ports=ports,
            description=description,
        )

        patched_service_request.additional_properties = d
        return patched_service_request

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
