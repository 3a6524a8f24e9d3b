from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.catalog_item_version_rules import CatalogItemVersionRules


T = TypeVar("T", bound="CatalogItemVersion")


@_attrs_define
class CatalogItemVersion:
    """
    Attributes:
        number (int):
        name (str):
        summary (str):
        description (str): What it is for and its trade-offs
        rules (CatalogItemVersionRules):
        max_lease_days (int | None):
        created (datetime.datetime):
        created_by (str):
    """

    number: int
    name: str
    summary: str
    description: str
    rules: CatalogItemVersionRules
    max_lease_days: int | None
    created: datetime.datetime
    created_by: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        number = self.number

        name = self.name

        summary = self.summary

        description = self.description

        rules = self.rules.to_dict()

        max_lease_days: int | None
        max_lease_days = self.max_lease_days

        created = self.created.isoformat()

        created_by = self.created_by

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "number": number,
                "name": name,
                "summary": summary,
                "description": description,
                "rules": rules,
                "max_lease_days": max_lease_days,
                "created": created,
                "created_by": created_by,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.catalog_item_version_rules import CatalogItemVersionRules

        d = dict(src_dict)
        number = d.pop("number")

        name = d.pop("name")

        summary = d.pop("summary")

        description = d.pop("description")

        rules = CatalogItemVersionRules.from_dict(d.pop("rules"))

        def _parse_max_lease_days(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        max_lease_days = _parse_max_lease_days(d.pop("max_lease_days"))

        created = datetime.datetime.fromisoformat(d.pop("created"))

        created_by = d.pop("created_by")

        catalog_item_version = cls(
            number=number,
            name=name,
            summary=summary,
            description=description,
            rules=rules,
            max_lease_days=max_lease_days,
            created=created,
            created_by=created_by,
        )

        catalog_item_version.additional_properties = d
        return catalog_item_version

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
