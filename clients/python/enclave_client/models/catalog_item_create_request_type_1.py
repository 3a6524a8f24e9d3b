from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.catalog_item_create_request_type_1_visibility import CatalogItemCreateRequestType1Visibility

T = TypeVar("T", bound="CatalogItemCreateRequestType1")


@_attrs_define
class CatalogItemCreateRequestType1:
    """
    Attributes:
        visibility (CatalogItemCreateRequestType1Visibility):
        tenants (Any):
    """

    visibility: CatalogItemCreateRequestType1Visibility
    tenants: Any
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        visibility = self.visibility.value

        tenants = self.tenants

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "visibility": visibility,
                "tenants": tenants,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        visibility = CatalogItemCreateRequestType1Visibility(d.pop("visibility"))

        tenants = d.pop("tenants")

        catalog_item_create_request_type_1 = cls(
            visibility=visibility,
            tenants=tenants,
        )

        catalog_item_create_request_type_1.additional_properties = d
        return catalog_item_create_request_type_1

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
