from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.catalog_item_version_rules_gpu_mode_type_0_value import CatalogItemVersionRulesGpuModeType0Value
from ..types import UNSET, Unset

T = TypeVar("T", bound="CatalogItemVersionRulesGpuModeType0")


@_attrs_define
class CatalogItemVersionRulesGpuModeType0:
    """
    Attributes:
        value (CatalogItemVersionRulesGpuModeType0Value):
        editable (bool | Unset):
    """

    value: CatalogItemVersionRulesGpuModeType0Value
    editable: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        value = self.value.value

        editable = self.editable

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "value": value,
            }
        )
        if editable is not UNSET:
            field_dict["editable"] = editable

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        value = CatalogItemVersionRulesGpuModeType0Value(d.pop("value"))

        editable = d.pop("editable", UNSET)

        catalog_item_version_rules_gpu_mode_type_0 = cls(
            value=value,
            editable=editable,
        )

        return catalog_item_version_rules_gpu_mode_type_0
