from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="FabricJoinRequest")


@_attrs_define
class FabricJoinRequest:
    """Refuse keys a serializer does not know instead of dropping them silently.

    Attributes:
        token (str):
        hostname (str | Unset): The subnet manager's host name, for the audit trail
    """

    token: str
    hostname: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        token = self.token

        hostname = self.hostname

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "token": token,
            }
        )
        if hostname is not UNSET:
            field_dict["hostname"] = hostname

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        token = d.pop("token")

        hostname = d.pop("hostname", UNSET)

        fabric_join_request = cls(
            token=token,
            hostname=hostname,
        )

        return fabric_join_request
