from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.host_capacity import HostCapacity


T = TypeVar("T", bound="VCenterCapacity")


@_attrs_define
class VCenterCapacity:
    """
    Attributes:
        id (int):
        name (str):
        total (int):
        used (int):
        free (int):
        hosts (list[HostCapacity]):
    """

    id: int
    name: str
    total: int
    used: int
    free: int
    hosts: list[HostCapacity]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        total = self.total

        used = self.used

        free = self.free

        hosts = []
        for hosts_item_data in self.hosts:
            hosts_item = hosts_item_data.to_dict()
            hosts.append(hosts_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "total": total,
                "used": used,
                "free": free,
                "hosts": hosts,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.host_capacity import HostCapacity

        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        total = d.pop("total")

        used = d.pop("used")

        free = d.pop("free")

        hosts = []
        _hosts = d.pop("hosts")
        for hosts_item_data in _hosts:
            hosts_item = HostCapacity.from_dict(hosts_item_data)

            hosts.append(hosts_item)

        v_center_capacity = cls(
            id=id,
            name=name,
            total=total,
            used=used,
            free=free,
            hosts=hosts,
        )

        v_center_capacity.additional_properties = d
        return v_center_capacity

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
