from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.membership_role_enum import MembershipRoleEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="MembershipRequest")


@_attrs_define
class MembershipRequest:
    """
    Attributes:
        tenant (int):
        username (str): The user's name; they sign in to Enclave once before they can be added
        role (MembershipRoleEnum | Unset): * `owner` - Owner (PI)
            * `member` - Member Default: MembershipRoleEnum.MEMBER.
    """

    tenant: int
    username: str
    role: MembershipRoleEnum | Unset = MembershipRoleEnum.MEMBER
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        tenant = self.tenant

        username = self.username

        role: str | Unset = UNSET
        if not isinstance(self.role, Unset):
            role = self.role.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "tenant": tenant,
                "username": username,
            }
        )
        if role is not UNSET:
            field_dict["role"] = role

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        tenant = d.pop("tenant")

        username = d.pop("username")

        _role = d.pop("role", UNSET)
        role: MembershipRoleEnum | Unset
        if isinstance(_role, Unset):
            role = UNSET
        else:
            role = MembershipRoleEnum(_role)

        membership_request = cls(
            tenant=tenant,
            username=username,
            role=role,
        )

        membership_request.additional_properties = d
        return membership_request

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
