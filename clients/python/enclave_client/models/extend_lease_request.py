from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="ExtendLeaseRequest")


@_attrs_define
class ExtendLeaseRequest:
    """
    Attributes:
        lease_end (datetime.date):
        justification (str | Unset): Needed only past the site's maximum lease: the extension then waits for a PI's or
            admin's approval Default: ''.
    """

    lease_end: datetime.date
    justification: str | Unset = ""
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        lease_end = self.lease_end.isoformat()

        justification = self.justification

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "lease_end": lease_end,
            }
        )
        if justification is not UNSET:
            field_dict["justification"] = justification

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        lease_end = datetime.date.fromisoformat(d.pop("lease_end"))

        justification = d.pop("justification", UNSET)

        extend_lease_request = cls(
            lease_end=lease_end,
            justification=justification,
        )

        extend_lease_request.additional_properties = d
        return extend_lease_request

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
