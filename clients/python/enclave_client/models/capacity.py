from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.v_center_capacity import VCenterCapacity


T = TypeVar("T", bound="Capacity")


@_attrs_define
class Capacity:
    """
    Attributes:
        vcenters (list[VCenterCapacity]):
    """

    vcenters: list[VCenterCapacity]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        vcenters = []
        for vcenters_item_data in self.vcenters:
            vcenters_item = vcenters_item_data.to_dict()
            vcenters.append(vcenters_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "vcenters": vcenters,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.v_center_capacity import VCenterCapacity

        d = dict(src_dict)
        vcenters = []
        _vcenters = d.pop("vcenters")
        for vcenters_item_data in _vcenters:
            vcenters_item = VCenterCapacity.from_dict(vcenters_item_data)

            vcenters.append(vcenters_item)

        capacity = cls(
            vcenters=vcenters,
        )

        capacity.additional_properties = d
        return capacity

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
