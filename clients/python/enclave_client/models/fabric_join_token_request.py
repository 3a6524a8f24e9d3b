from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="FabricJoinTokenRequest")


@_attrs_define
class FabricJoinTokenRequest:
    """Refuse keys a serializer does not know instead of dropping them silently.

    Attributes:
        fabric (int):
        hours (int | Unset):  Default: 24.
    """

    fabric: int
    hours: int | Unset = 24

    def to_dict(self) -> dict[str, Any]:
        fabric = self.fabric

        hours = self.hours

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "fabric": fabric,
            }
        )
        if hours is not UNSET:
            field_dict["hours"] = hours

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        fabric = d.pop("fabric")

        hours = d.pop("hours", UNSET)

        fabric_join_token_request = cls(
            fabric=fabric,
            hours=hours,
        )

        return fabric_join_token_request
