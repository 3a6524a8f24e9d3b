from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.membership_brief import MembershipBrief
    from ..models.token import Token


T = TypeVar("T", bound="Me")


@_attrs_define
class Me:
    """Who the caller is: the account, its tenants and roles, and the token it came with (if any).

    Attributes:
        username (str):
        full_name (str):
        email (str):
        is_site_admin (bool):
        memberships (list[MembershipBrief]):
        token (None | Token):
    """

    username: str
    full_name: str
    email: str
    is_site_admin: bool
    memberships: list[MembershipBrief]
    token: None | Token
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.token import Token

        username = self.username

        full_name = self.full_name

        email = self.email

        is_site_admin = self.is_site_admin

        memberships = []
        for memberships_item_data in self.memberships:
            memberships_item = memberships_item_data.to_dict()
            memberships.append(memberships_item)

        token: dict[str, Any] | None
        if isinstance(self.token, Token):
            token = self.token.to_dict()
        else:
            token = self.token

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "username": username,
                "full_name": full_name,
                "email": email,
                "is_site_admin": is_site_admin,
                "memberships": memberships,
                "token": token,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.membership_brief import MembershipBrief
        from ..models.token import Token

        d = dict(src_dict)
        username = d.pop("username")

        full_name = d.pop("full_name")

        email = d.pop("email")

        is_site_admin = d.pop("is_site_admin")

        memberships = []
        _memberships = d.pop("memberships")
        for memberships_item_data in _memberships:
            memberships_item = MembershipBrief.from_dict(memberships_item_data)

            memberships.append(memberships_item)

        def _parse_token(data: object) -> None | Token:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                token_type_1 = Token.from_dict(data)

                return token_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Token, data)

        token = _parse_token(d.pop("token"))

        me = cls(
            username=username,
            full_name=full_name,
            email=email,
            is_site_admin=is_site_admin,
            memberships=memberships,
            token=token,
        )

        me.additional_properties = d
        return me

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
