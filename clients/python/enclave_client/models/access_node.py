from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="AccessNode")


@_attrs_define
class AccessNode:
    """
    Attributes:
        name (str):
        role (str):
        host_name (str):
        addresses (list[str]):
    """

    name: str
    role: str
    host_name: str
    addresses: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        role = self.role

        host_name = self.host_name

        addresses = self.addresses

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "role": role,
                "host_name": host_name,
                "addresses": addresses,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        role = d.pop("role")

        host_name = d.pop("host_name")

        addresses = cast(list[str], d.pop("addresses"))

        access_node = cls(
            name=name,
            role=role,
            host_name=host_name,
            addresses=addresses,
        )

        access_node.additional_properties = d
        return access_node

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
