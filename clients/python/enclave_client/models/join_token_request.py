from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="JoinTokenRequest")


@_attrs_define
class JoinTokenRequest:
    """
    Attributes:
        pool (int):
        node_name (str | Unset): Optional: the hostname this token may enrol (re-enrol)
        hours (int | Unset):  Default: 24.
    """

    pool: int
    node_name: str | Unset = UNSET
    hours: int | Unset = 24
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        pool = self.pool

        node_name: str | Unset
        if isinstance(self.node_name, Unset):
            node_name = UNSET
        else:
            node_name = self.node_name

        hours = self.hours

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "pool": pool,
            }
        )
        if node_name is not UNSET:
            field_dict["node_name"] = node_name
        if hours is not UNSET:
            field_dict["hours"] = hours

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        pool = d.pop("pool")

        def _parse_node_name(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        node_name = _parse_node_name(d.pop("node_name", UNSET))

        hours = d.pop("hours", UNSET)

        join_token_request = cls(
            pool=pool,
            node_name=node_name,
            hours=hours,
        )

        join_token_request.additional_properties = d
        return join_token_request

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
