from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="FabricCredentialAnswer")


@_attrs_define
class FabricCredentialAnswer:
    """
    Attributes:
        fabric (str):
        credential (str): Plaintext fabric agent credential, shown once
        expires_at (datetime.datetime):
        expires_in (int): Seconds the credential stays valid
    """

    fabric: str
    credential: str
    expires_at: datetime.datetime
    expires_in: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        fabric = self.fabric

        credential = self.credential

        expires_at = self.expires_at.isoformat()

        expires_in = self.expires_in

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "fabric": fabric,
                "credential": credential,
                "expires_at": expires_at,
                "expires_in": expires_in,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        fabric = d.pop("fabric")

        credential = d.pop("credential")

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        expires_in = d.pop("expires_in")

        fabric_credential_answer = cls(
            fabric=fabric,
            credential=credential,
            expires_at=expires_at,
            expires_in=expires_in,
        )

        fabric_credential_answer.additional_properties = d
        return fabric_credential_answer

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
