from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CatalogItemCreateRulesWorkerCountType1")


@_attrs_define
class CatalogItemCreateRulesWorkerCountType1:
    """
    Attributes:
        value (int):
        editable (bool):
        min_ (int | Unset):
        max_ (int | Unset):
    """

    value: int
    editable: bool
    min_: int | Unset = UNSET
    max_: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        value = self.value

        editable = self.editable

        min_ = self.min_

        max_ = self.max_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "value": value,
                "editable": editable,
            }
        )
        if min_ is not UNSET:
            field_dict["min"] = min_
        if max_ is not UNSET:
            field_dict["max"] = max_

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        value = d.pop("value")

        editable = d.pop("editable")

        min_ = d.pop("min", UNSET)

        max_ = d.pop("max", UNSET)

        catalog_item_create_rules_worker_count_type_1 = cls(
            value=value,
            editable=editable,
            min_=min_,
            max_=max_,
        )

        return catalog_item_create_rules_worker_count_type_1
