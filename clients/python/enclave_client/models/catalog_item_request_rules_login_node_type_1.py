from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="CatalogItemRequestRulesLoginNodeType1")


@_attrs_define
class CatalogItemRequestRulesLoginNodeType1:
    """
    Attributes:
        value (bool):
        editable (bool):
    """

    value: bool
    editable: bool

    def to_dict(self) -> dict[str, Any]:
        value = self.value

        editable = self.editable

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "value": value,
                "editable": editable,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        value = d.pop("value")

        editable = d.pop("editable")

        catalog_item_request_rules_login_node_type_1 = cls(
            value=value,
            editable=editable,
        )

        return catalog_item_request_rules_login_node_type_1
