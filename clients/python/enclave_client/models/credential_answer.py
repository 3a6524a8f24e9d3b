from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CredentialAnswer")


@_attrs_define
class CredentialAnswer:
    """
    Attributes:
        credential (str): Plaintext node credential, shown once
        expires_at (datetime.datetime):
        expires_in (int): Seconds the credential stays valid
    """

    credential: str
    expires_at: datetime.datetime
    expires_in: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        credential = self.credential

        expires_at = self.expires_at.isoformat()

        expires_in = self.expires_in

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "credential": credential,
                "expires_at": expires_at,
                "expires_in": expires_in,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        credential = d.pop("credential")

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        expires_in = d.pop("expires_in")

        credential_answer = cls(
            credential=credential,
            expires_at=expires_at,
            expires_in=expires_in,
        )

        credential_answer.additional_properties = d
        return credential_answer

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
