from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.service_protocol_enum import ServiceProtocolEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="Service")


@_attrs_define
class Service:
    """
    Attributes:
        id (int):
        name (str):
        protocol (ServiceProtocolEnum): * `tcp` - TCP
            * `udp` - UDP
            * `icmp` - ICMP
            * `any` - Any
        ports (str | Unset): Comma-separated ports and ranges, e.g. 22,6817-6819
        description (str | Unset):
    """

    id: int
    name: str
    protocol: ServiceProtocolEnum
    ports: str | Unset = UNSET
    description: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        protocol = self.protocol.value

        ports = self.ports

        description = self.description

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "protocol": protocol,
            }
        )
        if ports is not UNSET:
            field_dict["ports"] = ports
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        protocol = ServiceProtocolEnum(d.pop("protocol"))

        ports = d.pop("ports", UNSET)

        description = d.pop("description", UNSET)

        service = cls(
            id=id,
            name=name,
            protocol=protocol,
            ports=ports,
            description=description,
        )

        service.additional_properties = d
        return service

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
