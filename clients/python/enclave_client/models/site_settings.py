from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="SiteSettings")


@_attrs_define
class SiteSettings:
    """DNS, NTP and NFS servers every tenant's VMs are given and may reach (derived site groups).

    Whitespace is not trimmed: netpolicy.site refuses it with the grammar's message.

        Attributes:
            updated (datetime.datetime | None): Null until first changed
            dns_servers (list[str] | Unset):
            dns_domain (str | Unset): Search domain handed to guests
            ntp_servers (list[str] | Unset):
            nfs_servers (list[str] | Unset):
            address_cooldown_minutes (int | Unset): A released VM address is not handed out again for this long (ARP and DNS
                caches)
    """

    updated: datetime.datetime | None
    dns_servers: list[str] | Unset = UNSET
    dns_domain: str | Unset = UNSET
    ntp_servers: list[str] | Unset = UNSET
    nfs_servers: list[str] | Unset = UNSET
    address_cooldown_minutes: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        updated: None | str
        if isinstance(self.updated, datetime.datetime):
            updated = self.updated.isoformat()
        else:
            updated = self.updated

        dns_servers: list[str] | Unset = UNSET
        if not isinstance(self.dns_servers, Unset):
            dns_servers = self.dns_servers

        dns_domain = self.dns_domain

        ntp_servers: list[str] | Unset = UNSET
        if not isinstance(self.ntp_servers, Unset):
            ntp_servers = self.ntp_servers

        nfs_servers: list[str] | Unset = UNSET
        if not isinstance(self.nfs_servers, Unset):
            nfs_servers = self.nfs_servers

        address_cooldown_minutes = self.address_cooldown_minutes

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "updated": updated,
            }
        )
        if dns_servers is not UNSET:
            field_dict["dns_servers"] = dns_servers
        if dns_domain is not UNSET:
            field_dict["dns_domain"] = dns_domain
        if ntp_servers is not UNSET:
            field_dict["ntp_servers"] = ntp_servers
        if nfs_servers is not UNSET:
            field_dict["nfs_servers"] = nfs_servers
        if address_cooldown_minutes is not UNSET:
            field_dict["address_cooldown_minutes"] = address_cooldown_minutes

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_updated(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                updated_type_0 = datetime.datetime.fromisoformat(data)

                return updated_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        updated = _parse_updated(d.pop("updated"))

        dns_servers = cast(list[str], d.pop("dns_servers", UNSET))

        dns_domain = d.pop("dns_domain", UNSET)

        ntp_servers = cast(list[str], d.pop("ntp_servers", UNSET))

        nfs_servers = cast(list[str], d.pop("nfs_servers", UNSET))

        address_cooldown_minutes = d.pop("address_cooldown_minutes", UNSET)

        site_settings = cls(
            updated=updated,
            dns_servers=dns_servers,
            dns_domain=dns_domain,
            ntp_servers=ntp_servers,
            nfs_servers=nfs_servers,
            address_cooldown_minutes=address_cooldown_minutes,
        )

        site_settings.additional_properties = d
        return site_settings

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
