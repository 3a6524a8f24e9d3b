from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.catalog_request_request_values import CatalogRequestRequestValues


T = TypeVar("T", bound="CatalogRequestRequest")


@_attrs_define
class CatalogRequestRequest:
    """A cluster request from an item: the researcher's own fields plus values the item lets them change.

    Attributes:
        tenant (int):
        name (str):
        lease_end (datetime.date):
        justification (str):
        values (CatalogRequestRequestValues | Unset): Request fields the item lets you change
        submit (bool | Unset): Submit at once Default: False.
    """

    tenant: int
    name: str
    lease_end: datetime.date
    justification: str
    values: CatalogRequestRequestValues | Unset = UNSET
    submit: bool | Unset = False
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        tenant = self.tenant

        name = self.name

        lease_end = self.lease_end.isoformat()

        justification = self.justification

        values: dict[str, Any] | Unset = UNSET
        if not isinstance(self.values, Unset):
            values = self.values.to_dict()

        submit = self.submit

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "tenant": tenant,
                "name": name,
                "lease_end": lease_end,
                "justification": justification,
            }
        )
        if values is not UNSET:
            field_dict["values"] = values
        if submit is not UNSET:
            field_dict["submit"] = submit

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.catalog_request_request_values import CatalogRequestRequestValues

        d = dict(src_dict)
        tenant = d.pop("tenant")

        name = d.pop("name")

        lease_end = datetime.date.fromisoformat(d.pop("lease_end"))

        justification = d.pop("justification")

        _values = d.pop("values", UNSET)
        values: CatalogRequestRequestValues | Unset
        if isinstance(_values, Unset):
            values = UNSET
        else:
            values = CatalogRequestRequestValues.from_dict(_values)

        submit = d.pop("submit", UNSET)

        catalog_request_request = cls(
            tenant=tenant,
            name=name,
            lease_end=lease_end,
            justification=justification,
            values=values,
            submit=submit,
        )

        catalog_request_request.additional_properties = d
        return catalog_request_request

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
