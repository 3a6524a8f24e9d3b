from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Host")


@_attrs_define
class Host:
    """
    Attributes:
        id (int):
        vcenter (int):
        vcenter_name (str):
        name (str):
        compute_cluster (str):
        discovered (datetime.datetime | None):
        pf_count (int):
    """

    id: int
    vcenter: int
    vcenter_name: str
    name: str
    compute_cluster: str
    discovered: datetime.datetime | None
    pf_count: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        vcenter = self.vcenter

        vcenter_name = self.vcenter_name

        name = self.name

        compute_cluster = self.compute_cluster

        discovered: None | str
        if isinstance(self.discovered, datetime.datetime):
            discovered = self.discovered.isoformat()
        else:
            discovered = self.discovered

        pf_count = self.pf_count

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "vcenter": vcenter,
                "vcenter_name": vcenter_name,
                "name": name,
                "compute_cluster": compute_cluster,
                "discovered": discovered,
                "pf_count": pf_count,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        vcenter = d.pop("vcenter")

        vcenter_name = d.pop("vcenter_name")

        name = d.pop("name")

        compute_cluster = d.pop("compute_cluster")

        def _parse_discovered(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                discovered_type_0 = datetime.datetime.fromisoformat(data)

                return discovered_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        discovered = _parse_discovered(d.pop("discovered"))

        pf_count = d.pop("pf_count")

        host = cls(
            id=id,
            vcenter=vcenter,
            vcenter_name=vcenter_name,
            name=name,
            compute_cluster=compute_cluster,
            discovered=discovered,
            pf_count=pf_count,
        )

        host.additional_properties = d
        return host

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
