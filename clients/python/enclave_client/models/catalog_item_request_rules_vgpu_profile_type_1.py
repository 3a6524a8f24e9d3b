from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CatalogItemRequestRulesVgpuProfileType1")


@_attrs_define
class CatalogItemRequestRulesVgpuProfileType1:
    """
    Attributes:
        value (str):
        editable (bool):
        choices (list[str] | Unset):
    """

    value: str
    editable: bool
    choices: list[str] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        value = self.value

        editable = self.editable

        choices: list[str] | Unset = UNSET
        if not isinstance(self.choices, Unset):
            choices = self.choices

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "value": value,
                "editable": editable,
            }
        )
        if choices is not UNSET:
            field_dict["choices"] = choices

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        value = d.pop("value")

        editable = d.pop("editable")

        choices = cast(list[str], d.pop("choices", UNSET))

        catalog_item_request_rules_vgpu_profile_type_1 = cls(
            value=value,
            editable=editable,
            choices=choices,
        )

        return catalog_item_request_rules_vgpu_profile_type_1
