from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.catalog_item_create_rules_nic_type_type_1_choices_item import (
    CatalogItemCreateRulesNicTypeType1ChoicesItem,
)
from ..models.catalog_item_create_rules_nic_type_type_1_value import CatalogItemCreateRulesNicTypeType1Value
from ..types import UNSET, Unset

T = TypeVar("T", bound="CatalogItemCreateRulesNicTypeType1")


@_attrs_define
class CatalogItemCreateRulesNicTypeType1:
    """
    Attributes:
        value (CatalogItemCreateRulesNicTypeType1Value):
        editable (bool):
        choices (list[CatalogItemCreateRulesNicTypeType1ChoicesItem] | Unset):
    """

    value: CatalogItemCreateRulesNicTypeType1Value
    editable: bool
    choices: list[CatalogItemCreateRulesNicTypeType1ChoicesItem] | Unset = UNSET

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
        value = CatalogItemCreateRulesNicTypeType1Value(d.pop("value"))

        editable = d.pop("editable")

        _choices = d.pop("choices", UNSET)
        choices: list[CatalogItemCreateRulesNicTypeType1ChoicesItem] | Unset = UNSET
        if _choices is not UNSET:
            choices = []
            for choices_item_data in _choices:
                choices_item = CatalogItemCreateRulesNicTypeType1ChoicesItem(choices_item_data)

                choices.append(choices_item)

        catalog_item_create_rules_nic_type_type_1 = cls(
            value=value,
            editable=editable,
            choices=choices,
        )

        return catalog_item_create_rules_nic_type_type_1
