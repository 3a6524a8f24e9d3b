from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.pool_request_type_3_kind import PoolRequestType3Kind
from ..types import UNSET, Unset

T = TypeVar("T", bound="PoolRequestType3")


@_attrs_define
class PoolRequestType3:
    """
    Attributes:
        kind (PoolRequestType3Kind):
        cidr (str):
        first (None | Unset):  Default: None.
        last (None | Unset):  Default: None.
        default_prefix_length (int | None | Unset):
        min_prefix_length (int | None | Unset):
    """

    kind: PoolRequestType3Kind
    cidr: str
    first: None | Unset = None
    last: None | Unset = None
    default_prefix_length: int | None | Unset = UNSET
    min_prefix_length: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        kind = self.kind.value

        cidr = self.cidr

        first = self.first

        last = self.last

        default_prefix_length: int | None | Unset
        if isinstance(self.default_prefix_length, Unset):
            default_prefix_length = UNSET
        else:
            default_prefix_length = self.default_prefix_length

        min_prefix_length: int | None | Unset
        if isinstance(self.min_prefix_length, Unset):
            min_prefix_length = UNSET
        else:
            min_prefix_length = self.min_prefix_length

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "kind": kind,
                "cidr": cidr,
            }
        )
        if first is not UNSET:
            field_dict["first"] = first
        if last is not UNSET:
            field_dict["last"] = last
        if default_prefix_length is not UNSET:
            field_dict["default_prefix_length"] = default_prefix_length
        if min_prefix_length is not UNSET:
            field_dict["min_prefix_length"] = min_prefix_length

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        kind = PoolRequestType3Kind(d.pop("kind"))

        cidr = d.pop("cidr")

        first = d.pop("first", UNSET)

        last = d.pop("last", UNSET)

        def _parse_default_prefix_length(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        default_prefix_length = _parse_default_prefix_length(d.pop("default_prefix_length", UNSET))

        def _parse_min_prefix_length(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        min_prefix_length = _parse_min_prefix_length(d.pop("min_prefix_length", UNSET))

        pool_request_type_3 = cls(
            kind=kind,
            cidr=cidr,
            first=first,
            last=last,
            default_prefix_length=default_prefix_length,
            min_prefix_length=min_prefix_length,
        )

        pool_request_type_3.additional_properties = d
        return pool_request_type_3

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
