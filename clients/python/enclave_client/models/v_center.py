from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="VCenter")


@_attrs_define
class VCenter:
    """A vCenter endpoint; the password is write-only and stored encrypted.

    Attributes:
        id (int):
        name (str):
        host (str):
        username (str):
        has_password (bool):
        skips_tls_verification (bool):
        datacenter (str):
        compute_cluster (str):
        template (str):
        host_count (int):
        inventory (Any): Last discovery: datastores, switches, ...
        last_discovery (datetime.datetime | None):
        discovery_error (str):
        port (int | Unset):
        password_file (str | Unset): Path of a secret file
        verify_tls (bool | Unset): On by default; off only together with insecure
        ca_bundle (str | Unset): PEM file of trusted CAs
        insecure (bool | Unset): Lab only: skip TLS verification (shown in the UI)
        dvs_name (str | Unset):
        uplink_pnic (str | Unset):
        management_network (str | Unset): The one network besides the tenant's that cluster VMs get a NIC on (blank:
            none)
        management_isolation (str | Unset): How the management network keeps tenants apart (shown on the site's page)
    """

    id: int
    name: str
    host: str
    username: str
    has_password: bool
    skips_tls_verification: bool
    datacenter: str
    compute_cluster: str
    template: str
    host_count: int
    inventory: Any
    last_discovery: datetime.datetime | None
    discovery_error: str
    port: int | Unset = UNSET
    password_file: str | Unset = UNSET
    verify_tls: bool | Unset = UNSET
    ca_bundle: str | Unset = UNSET
    insecure: bool | Unset = UNSET
    dvs_name: str | Unset = UNSET
    uplink_pnic: str | Unset = UNSET
    management_network: str | Unset = UNSET
    management_isolation: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        host = self.host

        username = self.username

        has_password = self.has_password

        skips_tls_verification = self.skips_tls_verification

        datacenter = self.datacenter

        compute_cluster = self.compute_cluster

        template = self.template

        host_count = self.host_count

        inventory = self.inventory

        last_discovery: None | str
        if isinstance(self.last_discovery, datetime.datetime):
            last_discovery = self.last_discovery.isoformat()
        else:
            last_discovery = self.last_discovery

        discovery_error = self.discovery_error

        port = self.port

        password_file = self.password_file

        verify_tls = self.verify_tls

        ca_bundle = self.ca_bundle

        insecure = self.insecure

        dvs_name = self.dvs_name

        uplink_pnic = self.uplink_pnic

        management_network = self.management_network

        management_isolation = self.management_isolation

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "host": host,
                "username": username,
                "has_password": has_password,
                "skips_tls_verification": skips_tls_verification,
                "datacenter": datacenter,
                "compute_cluster": compute_cluster,
                "template": template,
                "host_count": host_count,
                "inventory": inventory,
                "last_discovery": last_discovery,
                "discovery_error": discovery_error,
            }
        )
        if port is not UNSET:
            field_dict["port"] = port
        if password_file is not UNSET:
            field_dict["password_file"] = password_file
        if verify_tls is not UNSET:
            field_dict["verify_tls"] = verify_tls
        if ca_bundle is not UNSET:
            field_dict["ca_bundle"] = ca_bundle
        if insecure is not UNSET:
            field_dict["insecure"] = insecure
        if dvs_name is not UNSET:
            field_dict["dvs_name"] = dvs_name
        if uplink_pnic is not UNSET:
            field_dict["uplink_pnic"] = uplink_pnic
        if management_network is not UNSET:
            field_dict["management_network"] = management_network
        if management_isolation is not UNSET:
            field_dict["management_isolation"] = management_isolation

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        host = d.pop("host")

        username = d.pop("username")

        has_password = d.pop("has_password")

        skips_tls_verification = d.pop("skips_tls_verification")

        datacenter = d.pop("datacenter")

        compute_cluster = d.pop("compute_cluster")

        template = d.pop("template")

        host_count = d.pop("host_count")

        inventory = d.pop("inventory")

        def _parse_last_discovery(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_discovery_type_0 = datetime.datetime.fromisoformat(data)

                return last_discovery_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_discovery = _parse_last_discovery(d.pop("last_discovery"))

        discovery_error = d.pop("discovery_error")

        port = d.pop("port", UNSET)

        password_file = d.pop("password_file", UNSET)

        verify_tls = d.pop("verify_tls", UNSET)

        ca_bundle = d.pop("ca_bundle", UNSET)

        insecure = d.pop("insecure", UNSET)

        dvs_name = d.pop("dvs_name", UNSET)

        uplink_pnic = d.pop("uplink_pnic", UNSET)

        management_network = d.pop("management_network", UNSET)

        management_isolation = d.pop("management_isolation", UNSET)

        v_center = cls(
            id=id,
            name=name,
            host=host,
            username=username,
            has_password=has_password,
            skips_tls_verification=skips_tls_verification,
            datacenter=datacenter,
            compute_cluster=compute_cluster,
            template=template,
            host_count=host_count,
            inventory=inventory,
            last_discovery=last_discovery,
            discovery_error=discovery_error,
            port=port,
            password_file=password_file,
            verify_tls=verify_tls,
            ca_bundle=ca_bundle,
            insecure=insecure,
            dvs_name=dvs_name,
            uplink_pnic=uplink_pnic,
            management_network=management_network,
            management_isolation=management_isolation,
        )

        v_center.additional_properties = d
        return v_center

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
