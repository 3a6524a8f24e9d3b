from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.catalog_item_create_request_type_0_visibility import CatalogItemCreateRequestType0Visibility
from ..types import UNSET, Unset

T = TypeVar("T", bound="CatalogItemCreateRequestType0")


@_attrs_define
class CatalogItemCreateRequestType0:
    """
    Attributes:
        visibility (CatalogItemCreateRequestType0Visibility | Unset):
    """

    visibility: CatalogItemCreateRequestType0Visibility | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        visibility: str | Unset = UNSET
        if not isinstance(self.visibility, Unset):
            visibility = self.visibility.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if visibility is not UNSET:
            field_dict["visibility"] = visibility

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        _visibility = d.pop("visibility", UNSET)
        visibility: CatalogItemCreateRequestType0Visibility | Unset
        if isinstance(_visibility, Unset):
            visibility = UNSET
        else:
            visibility = CatalogItemCreateRequestType0Visibility(_visibility)

        catalog_item_create_request_type_0 = cls(
            visibility=visibility,
        )

        catalog_item_create_request_type_0.additional_properties = d
        return catalog_item_create_request_type_0

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
