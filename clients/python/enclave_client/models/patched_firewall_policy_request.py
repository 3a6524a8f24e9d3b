from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.category_enum import CategoryEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="PatchedFirewallPolicyRequest")


@_attrs_define
class PatchedFirewallPolicyRequest:
    """
    Attributes:
        name (str | Unset):
        tenant (int | None | Unset):
        category (CategoryEnum | Unset): * `emergency` - Emergency
            * `infrastructure` - Infrastructure
            * `environment` - Environment
            * `application` - Application
        sequence (int | Unset):
        description (str | Unset):
    """

    name: str | Unset = UNSET
    tenant: int | None | Unset = UNSET
    category: CategoryEnum | Unset = UNSET
    sequence: int | Unset = UNSET
    description: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        tenant: int | None | Unset
        if isinstance(self.tenant, Unset):
            tenant = UNSET
        else:
            tenant = self.tenant

        category: str | Unset = UNSET
        if not isinstance(self.category, Unset):
            category = self.category.value

        sequence = self.sequence

        description = self.description

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if tenant is not UNSET:
            field_dict["tenant"] = tenant
        if category is not UNSET:
            field_dict["category"] = category
        if sequence is not UNSET:
            field_dict["sequence"] = sequence
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name", UNSET)

        def _parse_tenant(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        tenant = _parse_tenant(d.pop("tenant", UNSET))

        _category = d.pop("category", UNSET)
        category: CategoryEnum | Unset
        if isinstance(_category, Unset):
            category = UNSET
        else:
            category = CategoryEnum(_category)

        sequence = d.pop("sequence", UNSET)

        description = d.pop("description", UNSET)

        patched_firewall_policy_request = cls(
            name=name,
            tenant=tenant,
            category=category,
            sequence=sequence,
            description=description,
        )

        patched_firewall_policy_request.additional_properties = d
        return patched_firewall_policy_request

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
