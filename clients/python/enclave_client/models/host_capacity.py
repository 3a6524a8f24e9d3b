from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.pf_capacity import PFCapacity


T = TypeVar("T", bound="HostCapacity")


@_attrs_define
class HostCapacity:
    """
    Attributes:
        host (str):
        total (int):
        used (int):
        free (int):
        pfs (list[PFCapacity]):
    """

    host: str
    total: int
    used: int
    free: int
    pfs: list[PFCapacity]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        host = self.host

        total = self.total

        used = self.used

        free = self.free

        pfs = []
        for pfs_item_data in self.pfs:
            pfs_item = pfs_item_data.to_dict()
            pfs.append(pfs_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "host": host,
                "total": total,
                "used": used,
                "free": free,
                "pfs": pfs,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.pf_capacity import PFCapacity

        d = dict(src_dict)
        host = d.pop("host")

        total = d.pop("total")

        used = d.pop("used")

        free = d.pop("free")

        pfs = []
        _pfs = d.pop("pfs")
        for pfs_item_data in _pfs:
            pfs_item = PFCapacity.from_dict(pfs_item_data)

            pfs.append(pfs_item)

        host_capacity = cls(
            host=host,
            total=total,
            used=used,
            free=free,
            pfs=pfs,
        )

        host_capacity.additional_properties = d
        return host_capacity

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
