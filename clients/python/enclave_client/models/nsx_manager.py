from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.check_result_enum import CheckResultEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="NsxManager")


@_attrs_define
class NsxManager:
    """An NSX Manager; the password is write-only and stored encrypted.

    Attributes:
        id (int):
        vcenter (int):
        url (str):
        username (str):
        transport_zone_path (str): The overlay transport zone tenant segments go in
        check_result (CheckResultEnum): * `never` - Not checked yet
            * `queued` - Queued
            * `ok` - Reachable
            * `failed` - Failed
        check_message (str):
        checked_at (datetime.datetime | None):
        verify_tls (bool | Unset): On by default; off only in labs
        ca_bundle (str | Unset): PEM file of trusted CAs (secrets dir)
        tier0_path (str | Unset): The tier-0 tenants' tier-1s connect to
        domain (str | Unset):
    """

    id: int
    vcenter: int
    url: str
    username: str
    transport_zone_path: str
    check_result: CheckResultEnum
    check_message: str
    checked_at: datetime.datetime | None
    verify_tls: bool | Unset = UNSET
    ca_bundle: str | Unset = UNSET
    tier0_path: str | Unset = UNSET
    domain: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        vcenter = self.vcenter

        url = self.url

        username = self.username

        transport_zone_path = self.transport_zone_path

        check_result = self.check_result.value

        check_message = self.check_message

        checked_at: None | str
        if isinstance(self.checked_at, datetime.datetime):
            checked_at = self.checked_at.isoformat()
        else:
            checked_at = self.checked_at

        verify_tls = self.verify_tls

        ca_bundle = self.ca_bundle

        tier0_path: str | Unset
        if isinstance(self.tier0_path, Unset):
            tier0_path = UNSET
        else:
            tier0_path = self.tier0_path

        domain = self.domain

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "vcenter": vcenter,
                "url": url,
                "username": username,
                "transport_zone_path": transport_zone_path,
                "check_result": check_result,
                "check_message": check_message,
                "checked_at": checked_at,
            }
        )
        if verify_tls is not UNSET:
            field_dict["verify_tls"] = verify_tls
        if ca_bundle is not UNSET:
            field_dict["ca_bundle"] = ca_bundle
        if tier0_path is not UNSET:
            field_dict["tier0_path"] = tier0_path
        if domain is not UNSET:
            field_dict["domain"] = domain

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        vcenter = d.pop("vcenter")

        url = d.pop("url")

        username = d.pop("username")

        transport_zone_path = d.pop("transport_zone_path")

        check_result = CheckResultEnum(d.pop("check_result"))

        check_message = d.pop("check_message")

        def _parse_checked_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                checked_at_type_0 = datetime.datetime.fromisoformat(data)

                return checked_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        checked_at = _parse_checked_at(d.pop("checked_at"))

        verify_tls = d.pop("verify_tls", UNSET)

        ca_bundle = d.pop("ca_bundle", UNSET)

        def _parse_tier0_path(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        tier0_path = _parse_tier0_path(d.pop("tier0_path", UNSET))

        domain = d.pop("domain", UNSET)

        nsx_manager = cls(
            id=id,
            vcenter=vcenter,
            url=url,
            username=username,
            transport_zone_path=transport_zone_path,
            check_result=check_result,
            check_message=check_message,
            checked_at=checked_at,
            verify_tls=verify_tls,
            ca_bundle=ca_bundle,
            tier0_path=tier0_path,
            domain=domain,
        )

        nsx_manager.additional_properties = d
        return nsx_manager

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
