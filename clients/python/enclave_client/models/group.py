from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.blank_enum import BlankEnum
from ..models.group_role_enum import GroupRoleEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="Group")


@_attrs_define
class Group:
    """
    Attributes:
        id (int):
        name (str):
        tenant (int | None | Unset):
        cidrs (list[str] | Unset): Canonical networks, e.g. 10.0.0.0/24
        segment (int | None | Unset):
        all_segments (bool | Unset): Include every live segment of the tenant
        role (BlankEnum | GroupRoleEnum | Unset):
        description (str | Unset):
    """

    id: int
    name: str
    tenant: int | None | Unset = UNSET
    cidrs: list[str] | Unset = UNSET
    segment: int | None | Unset = UNSET
    all_segments: bool | Unset = UNSET
    role: BlankEnum | GroupRoleEnum | Unset = UNSET
    description: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        tenant: int | None | Unset
        if isinstance(self.tenant, Unset):
            tenant = UNSET
        else:
            tenant = self.tenant

        cidrs: list[str] | Unset = UNSET
        if not isinstance(self.cidrs, Unset):
            cidrs = []
            for cidrs_item_data in self.cidrs:
                cidrs_item: str
                cidrs_item = cidrs_item_data
                cidrs.append(cidrs_item)

        segment: int | None | Unset
        if isinstance(self.segment, Unset):
            segment = UNSET
        else:
            segment = self.segment

        all_segments = self.all_segments

        role: str | Unset
        if isinstance(self.role, Unset):
            role = UNSET
        elif isinstance(self.role, GroupRoleEnum):
            role = self.role.value
        else:
            role = self.role.value

        description = self.description

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
            }
        )
        if tenant is not UNSET:
            field_dict["tenant"] = tenant
        if cidrs is not UNSET:
            field_dict["cidrs"] = cidrs
        if segment is not UNSET:
            field_dict["segment"] = segment
        if all_segments is not UNSET:
            field_dict["all_segments"] = all_segments
        if role is not UNSET:
            field_dict["role"] = role
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        def _parse_tenant(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        tenant = _parse_tenant(d.pop("tenant", UNSET))

        _cidrs = d.pop("cidrs", UNSET)
        cidrs: list[str] | Unset = UNSET
        if _cidrs is not UNSET:
            cidrs = []
            for cidrs_item_data in _cidrs:

                def _parse_cidrs_item(data: object) -> str:
                    return cast(str, data)

                cidrs_item = _parse_cidrs_item(cidrs_item_data)

                cidrs.append(cidrs_item)

        def _parse_segment(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        segment = _parse_segment(d.pop("segment", UNSET))

        all_segments = d.pop("all_segments", UNSET)

        def _parse_role(data: object) -> BlankEnum | GroupRoleEnum | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                role_type_0 = GroupRoleEnum(data)

                return role_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, str):
                raise TypeError()
            role_type_1 = BlankEnum(data)

            return role_type_1

        role = _parse_role(d.pop("role", UNSET))

        description = d.pop("description", UNSET)

        group = cls(
            id=id,
            name=name,
            tenant=tenant,
            cidrs=cidrs,
            segment=segment,
            all_segments=all_segments,
            role=role,
            description=description,
        )

        group.additional_properties = d
        return group

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
