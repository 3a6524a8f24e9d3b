from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="NodePoolRequest")


@_attrs_define
class NodePoolRequest:
    """
    Attributes:
        name (str):
        description (str | Unset):
        multicast_group (str | Unset): IPv4 multicast group (VXLAN BUM) Default: '239.1.1.1'.
    """

    name: str
    description: str | Unset = UNSET
    multicast_group: str | Unset = "239.1.1.1"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        description = self.description

        multicast_group = self.multicast_group

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description
        if multicast_group is not UNSET:
            field_dict["multicast_group"] = multicast_group

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        description = d.pop("description", UNSET)

        multicast_group = d.pop("multicast_group", UNSET)

        node_pool_request = cls(
            name=name,
            description=description,
            multicast_group=multicast_group,
        )

        node_pool_request.additional_properties = d
        return node_pool_request

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
