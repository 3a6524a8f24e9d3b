from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.approvable_site_kind_enum import ApprovableSiteKindEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="ApproveRequest")


@_attrs_define
class ApproveRequest:
    """
    Attributes:
        site (int | Unset): Id of the site (vCenter) to realize the cluster on; needed only when several are registered
        site_kind (ApprovableSiteKindEnum | Unset): * `vsphere` - vSphere Default: ApprovableSiteKindEnum.VSPHERE.
    """

    site: int | Unset = UNSET
    site_kind: ApprovableSiteKindEnum | Unset = ApprovableSiteKindEnum.VSPHERE
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        site = self.site

        site_kind: str | Unset = UNSET
        if not isinstance(self.site_kind, Unset):
            site_kind = self.site_kind.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if site is not UNSET:
            field_dict["site"] = site
        if site_kind is not UNSET:
            field_dict["site_kind"] = site_kind

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        site = d.pop("site", UNSET)

        _site_kind = d.pop("site_kind", UNSET)
        site_kind: ApprovableSiteKindEnum | Unset
        if isinstance(_site_kind, Unset):
            site_kind = UNSET
        else:
            site_kind = ApprovableSiteKindEnum(_site_kind)

        approve_request = cls(
            site=site,
            site_kind=site_kind,
        )

        approve_request.additional_properties = d
        return approve_request

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
