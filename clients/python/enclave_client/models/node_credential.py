from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="NodeCredential")


@_attrs_define
class NodeCredential:
    """
    Attributes:
        hint (str):
        created (datetime.datetime):
        expires_at (datetime.datetime):
    """

    hint: str
    created: datetime.datetime
    expires_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        hint = self.hint

        created = self.created.isoformat()

        expires_at = self.expires_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "hint": hint,
                "created": created,
                "expires_at": expires_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        hint = d.pop("hint")

        created = datetime.datetime.fromisoformat(d.pop("created"))

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        node_credential = cls(
            hint=hint,
            created=created,
            expires_at=expires_at,
        )

        node_credential.additional_properties = d
        return node_credential

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
