from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CatalogItemVersionRulesLoginNodeType0")


@_attrs_define
class CatalogItemVersionRulesLoginNodeType0:
    """
    Attributes:
        value (bool):
        editable (bool | Unset):
    """

    value: bool
    editable: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        value = self.value

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
        value = d.pop("value")

        editable = d.pop("editable", UNSET)

        catalog_item_version_rules_login_node_type_0 = cls(
            value=value,
            editable=editable,
        )

        return catalog_item_version_rules_login_node_type_0
