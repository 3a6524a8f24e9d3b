from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.visibility_enum import VisibilityEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.catalog_item_rules import CatalogItemRules


T = TypeVar("T", bound="CatalogItem")


@_attrs_define
class CatalogItem:
    """An item with its current version's content; changing the content makes a new version.

    Attributes:
        id (int):
        slug (str):
        name (str):
        version (int):
        created (datetime.datetime):
        summary (str | Unset):
        description (str | Unset): What the item is for and its trade-offs
        rules (CatalogItemRules | Unset): Per request field: {"value": preset, "editable": bool, "min"/"max" or
            "choices"}
        max_lease_days (int | None | Unset):
        visibility (VisibilityEnum | Unset): * `all` - Every tenant
            * `tenants` - Only the listed tenants
        tenants (list[int] | Unset):
        active (bool | Unset): Retired items cannot be requested; clusters keep theirs
    """

    id: int
    slug: str
    name: str
    version: int
    created: datetime.datetime
    summary: str | Unset = UNSET
    description: str | Unset = UNSET
    rules: CatalogItemRules | Unset = UNSET
    max_lease_days: int | None | Unset = UNSET
    visibility: VisibilityEnum | Unset = UNSET
    tenants: list[int] | Unset = UNSET
    active: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        slug = self.slug

        name = self.name

        version = self.version

        created = self.created.isoformat()

        summary = self.summary

        description = self.description

        rules: dict[str, Any] | Unset = UNSET
        if not isinstance(self.rules, Unset):
            rules = self.rules.to_dict()

        max_lease_days: int | None | Unset
        if isinstance(self.max_lease_days, Unset):
            max_lease_days = UNSET
        else:
            max_lease_days = self.max_lease_days

        visibility: str | Unset = UNSET
        if not isinstance(self.visibility, Unset):
            visibility = self.visibility.value

        tenants: list[int] | Unset = UNSET
        if not isinstance(self.tenants, Unset):
            tenants = self.tenants

        active = self.active

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "slug": slug,
                "name": name,
                "version": version,
                "created": created,
            }
        )
        if summary is not UNSET:
            field_dict["summary"] = summary
        if description is not UNSET:
            field_dict["description"] = description
        if rules is not UNSET:
            field_dict["rules"] = rules
        if max_lease_days is not UNSET:
            field_dict["max_lease_days"] = max_lease_days
        if visibility is not UNSET:
            field_dict["visibility"] = visibility
        if tenants is not UNSET:
            field_dict["tenants"] = tenants
        if active is not UNSET:
            field_dict["active"] = active

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.catalog_item_rules import CatalogItemRules

        d = dict(src_dict)
        id = d.pop("id")

        slug = d.pop("slug")

        name = d.pop("name")

        version = d.pop("version")

        created = datetime.datetime.fromisoformat(d.pop("created"))

        summary = d.pop("summary", UNSET)

        description = d.pop("description", UNSET)

        _rules = d.pop("rules", UNSET)
        rules: CatalogItemRules | Unset
        if isinstance(_rules, Unset):
            rules = UNSET
        else:
            rules = CatalogItemRules.from_dict(_rules)

        def _parse_max_lease_days(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_lease_days = _parse_max_lease_days(d.pop("max_lease_days", UNSET))

        _visibility = d.pop("visibility", UNSET)
        visibility: VisibilityEnum | Unset
        if isinstance(_visibility, Unset):
            visibility = UNSET
        else:
            visibility = VisibilityEnum(_visibility)

        tenants = cast(list[int], d.pop("tenants", UNSET))

        active = d.pop("active", UNSET)

        catalog_item = cls(
            id=id,
            slug=slug,
            name=name,
            version=version,
            created=created,
            summary=summary,
            description=description,
            rules=rules,
            max_lease_days=max_lease_days,
            visibility=visibility,
            tenants=tenants,
            active=active,
        )

        catalog_item.additional_properties = d
        return catalog_item

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
