from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.membership_role_enum import MembershipRoleEnum
from ..models.membership_source_enum import MembershipSourceEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="Membership")


@_attrs_define
class Membership:
    """
    Attributes:
        id (int):
        tenant (int):
        username (str): The user's name; they sign in to Enclave once before they can be added
        source (MembershipSourceEnum): * `local` - Granted in Enclave
            * `directory` - From the directory
        created (datetime.datetime):
        role (MembershipRoleEnum | Unset): * `owner` - Owner (PI)
            * `member` - Member Default: MembershipRoleEnum.MEMBER.
    """

    id: int
    tenant: int
    username: str
    source: MembershipSourceEnum
    created: datetime.datetime
    role: MembershipRoleEnum | Unset = MembershipRoleEnum.MEMBER
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        tenant = self.tenant

        username = self.username

        source = self.source.value

        created = self.created.isoformat()

        role: str | Unset = UNSET
        if not isinstance(self.role, Unset):
            role = self.role.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "tenant": tenant,
                "username": username,
                "source": source,
                "created": created,
            }
        )
        if role is not UNSET:
            field_dict["role"] = role

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        tenant = d.pop("tenant")

        username = d.pop("username")

        source = MembershipSourceEnum(d.pop("source"))

        created = datetime.datetime.fromisoformat(d.pop("created"))

        _role = d.pop("role", UNSET)
        role: MembershipRoleEnum | Unset
        if isinstance(_role, Unset):
            role = UNSET
        else:
            role = MembershipRoleEnum(_role)

        membership = cls(
            id=id,
            tenant=tenant,
            username=username,
            source=source,
            created=created,
            role=role,
        )

        membership.additional_properties = d
        return membership

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
