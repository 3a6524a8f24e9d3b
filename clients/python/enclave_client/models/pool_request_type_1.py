from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.pool_request_type_1_kind import PoolRequestType1Kind
from ..types import UNSET, Unset

T = TypeVar("T", bound="PoolRequestType1")


@_attrs_define
class PoolRequestType1:
    """
    Attributes:
        kind (PoolRequestType1Kind):
        first (int):
        last (int):
        cidr (None | Unset):  Default: None.
        default_prefix_length (None | Unset):  Default: None.
        min_prefix_length (None | Unset):  Default: None.
    """

    kind: PoolRequestType1Kind
    first: int
    last: int
    cidr: None | Unset = None
    default_prefix_length: None | Unset = None
    min_prefix_length: None | Unset = None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        kind = self.kind.value

        first = self.first

        last = self.last

        cidr = self.cidr

        default_prefix_length = self.default_prefix_length

        min_prefix_length = self.min_prefix_length

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "kind": kind,
                "first": first,
                "last": last,
            }
        )
        if cidr is not UNSET:
            field_dict["cidr"] = cidr
        if default_prefix_length is not UNSET:
            field_dict["default_prefix_length"] = default_prefix_length
        if min_prefix_length is not UNSET:
            field_dict["min_prefix_length"] = min_prefix_length

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        kind = PoolRequestType1Kind(d.pop("kind"))

        first = d.pop("first")

        last = d.pop("last")

        cidr = d.pop("cidr", UNSET)

        default_prefix_length = d.pop("default_prefix_length", UNSET)

        min_prefix_length = d.pop("min_prefix_length", UNSET)

        pool_request_type_1 = cls(
            kind=kind,
            first=first,
            last=last,
            cidr=cidr,
            default_prefix_length=default_prefix_length,
            min_prefix_length=min_prefix_length,
        )

        pool_request_type_1.additional_properties = d
        return pool_request_type_1

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
