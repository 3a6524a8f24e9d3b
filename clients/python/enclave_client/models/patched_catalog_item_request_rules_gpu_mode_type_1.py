from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.patched_catalog_item_request_rules_gpu_mode_type_1_choices_item import (
    PatchedCatalogItemRequestRulesGpuModeType1ChoicesItem,
)
from ..models.patched_catalog_item_request_rules_gpu_mode_type_1_value import (
    PatchedCatalogItemRequestRulesGpuModeType1Value,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="PatchedCatalogItemRequestRulesGpuModeType1")


@_attrs_define
class PatchedCatalogItemRequestRulesGpuModeType1:
    """
    Attributes:
        value (PatchedCatalogItemRequestRulesGpuModeType1Value):
        editable (bool):
        choices (list[PatchedCatalogItemRequestRulesGpuModeType1ChoicesItem] | Unset):
    """

    value: PatchedCatalogItemRequestRulesGpuModeType1Value
    editable: bool
    choices: list[PatchedCatalogItemRequestRulesGpuModeType1ChoicesItem] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        value = self.value.value

        editable = self.editable

        choices: list[str] | Unset = UNSET
        if not isinstance(self.choices, Unset):
            choices = []
            for choices_item_data in self.choices:
                choices_item = choices_item_data.value
                choices.append(choices_item)

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
        value = PatchedCatalogItemRequestRulesGpuModeType1Value(d.pop("value"))

        editable = d.pop("editable")

        _choices = d.pop("choices", UNSET)
        choices: list[PatchedCatalogItemRequestRulesGpuModeType1ChoicesItem] | Unset = UNSET
        if _choices is not UNSET:
            choices = []
            for choices_item_data in _choices:
                choices_item = PatchedCatalogItemRequestRulesGpuModeType1ChoicesItem(choices_item_data)

                choices.append(choices_item)

        patched_catalog_item_request_rules_gpu_mode_type_1 = cls(
            value=value,
            editable=editable,
            choices=choices,
        )

        return patched_catalog_item_request_rules_gpu_mode_type_1
