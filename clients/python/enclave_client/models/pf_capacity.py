from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PFCapacity")


@_attrs_define
class PFCapacity:
    """
    Attributes:
        id (int):
        pf (str): PCI id
        pnic (str):
        link_type (str):
        total (int): VFs the driver enables (max_vfs)
        used (int):
        free (int):
    """

    id: int
    pf: str
    pnic: str
    link_type: str
    total: int
    used: int
    free: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        pf = self.pf

        pnic = self.pnic

        link_type = self.link_type

        total = self.total

        used = self.used

        free = self.free

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "pf": pf,
                "pnic": pnic,
                "link_type": link_type,
                "total": total,
                "used": used,
                "free": free,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        pf = d.pop("pf")

        pnic = d.pop("pnic")

        link_type = d.pop("link_type")

        total = d.pop("total")

        used = d.pop("used")

        free = d.pop("free")

        pf_capacity = cls(
            id=id,
            pf=pf,
            pnic=pnic,
            link_type=link_type,
            total=total,
            used=used,
            free=free,
        )

        pf_capacity.additional_properties = d
        return pf_capacity

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
