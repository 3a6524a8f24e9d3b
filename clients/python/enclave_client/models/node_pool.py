from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.pool_subnet import PoolSubnet


T = TypeVar("T", bound="NodePool")


@_attrs_define
class NodePool:
    """
    Attributes:
        id (int):
        name (str):
        subnets (list[PoolSubnet]):
        created (datetime.datetime):
        description (str | Unset):
        multicast_group (str | Unset): IPv4 multicast group (VXLAN BUM) Default: '239.1.1.1'.
    """

    id: int
    name: str
    subnets: list[PoolSubnet]
    created: datetime.datetime
    description: str | Unset = UNSET
    multicast_group: str | Unset = "239.1.1.1"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        subnets = []
        for subnets_item_data in self.subnets:
            subnets_item = subnets_item_data.to_dict()
            subnets.append(subnets_item)

        created = self.created.isoformat()

        description = self.description

        multicast_group = self.multicast_group

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "subnets": subnets,
                "created": created,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description
        if multicast_group is not UNSET:
            field_dict["multicast_group"] = multicast_group

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.pool_subnet import PoolSubnet

        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        subnets = []
        _subnets = d.pop("subnets")
        for subnets_item_data in _subnets:
            subnets_item = PoolSubnet.from_dict(subnets_item_data)

            subnets.append(subnets_item)

        created = datetime.datetime.fromisoformat(d.pop("created"))

        description = d.pop("description", UNSET)

        multicast_group = d.pop("multicast_group", UNSET)

        node_pool = cls(
            id=id,
            name=name,
            subnets=subnets,
            created=created,
            description=description,
            multicast_group=multicast_group,
        )

        node_pool.additional_properties = d
        return node_pool

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
