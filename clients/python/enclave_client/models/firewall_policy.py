from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.category_enum import CategoryEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="FirewallPolicy")


@_attrs_define
class FirewallPolicy:
    """
    Attributes:
        id (int):
        name (str):
        scope (str):
        category (CategoryEnum): * `emergency` - Emergency
            * `infrastructure` - Infrastructure
            * `environment` - Environment
            * `application` - Application
        sequence (int):
        created (datetime.datetime):
        updated (datetime.datetime):
        tenant (int | None | Unset):
        description (str | Unset):
    """

    id: int
    name: str
    scope: str
    category: CategoryEnum
    sequence: int
    created: datetime.datetime
    updated: datetime.datetime
    tenant: int | None | Unset = UNSET
    description: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        scope = self.scope

        category = self.category.value

        sequence = self.sequence

        created = self.created.isoformat()

        updated = self.updated.isoformat()

        tenant: int | None | Unset
        if isinstance(self.tenant, Unset):
            tenant = UNSET
        else:
            tenant = self.tenant

        description = self.description

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "scope": scope,
                "category": category,
                "sequence": sequence,
                "created": created,
                "updated": updated,
            }
        )
        if tenant is not UNSET:
            field_dict["tenant"] = tenant
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        scope = d.pop("scope")

        category = CategoryEnum(d.pop("category"))

        sequence = d.pop("sequence")

        created = datetime.datetime.fromisoformat(d.pop("created"))

        updated = datetime.datetime.fromisoformat(d.pop("updated"))

        def _parse_tenant(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        tenant = _parse_tenant(d.pop("tenant", UNSET))

        description = d.pop("description", UNSET)

        firewall_policy = cls(
            id=id,
            name=name,
            scope=scope,
            category=category,
            sequence=sequence,
            created=created,
            updated=updated,
            tenant=tenant,
            description=description,
        )

        firewall_policy.additional_properties = d
        return firewall_policy

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
