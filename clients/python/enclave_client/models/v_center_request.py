from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="VCenterRequest")


@_attrs_define
class VCenterRequest:
    """A vCenter endpoint; the password is write-only and stored encrypted.

    Attributes:
        name (str):
        host (str):
        username (str):
        datacenter (str):
        compute_cluster (str):
        template (str):
        port (int | Unset):
        password (str | Unset): Write-only; encrypted at rest. Leave out on update to keep the current one.
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

    name: str
    host: str
    username: str
    datacenter: str
    compute_cluster: str
    template: str
    port: int | Unset = UNSET
    password: str | Unset = UNSET
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
        name = self.name

        host = self.host

        username = self.username

        datacenter = self.datacenter

        compute_cluster = self.compute_cluster

        template = self.template

        port = self.port

        password = self.password

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
                "name": name,
                "host": host,
                "username": username,
                "datacenter": datacenter,
                "compute_cluster": compute_cluster,
                "template": template,
            }
        )
        if port is not UNSET:
            field_dict["port"] = port
        if password is not UNSET:
            field_dict["password"] = password
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
        name = d.pop("name")

        host = d.pop("host")

        username = d.pop("username")

        datacenter = d.pop("datacenter")

        compute_cluster = d.pop("compute_cluster")

        template = d.pop("template")

        port = d.pop("port", UNSET)

        password = d.pop("password", UNSET)

        password_file = d.pop("password_file", UNSET)

        verify_tls = d.pop("verify_tls", UNSET)

        ca_bundle = d.pop("ca_bundle", UNSET)

        insecure = d.pop("insecure", UNSET)

        dvs_name = d.pop("dvs_name", UNSET)

        uplink_pnic = d.pop("uplink_pnic", UNSET)

        management_network = d.pop("management_network", UNSET)

        management_isolation = d.pop("management_isolation", UNSET)

        v_center_request = cls(
            name=name,
            host=host,
            username=username,
            datacenter=datacenter,
            compute_cluster=compute_cluster,
            template=template,
            port=port,
            password=password,
            password_file=password_file,
            verify_tls=verify_tls,
            ca_bundle=ca_bundle,
            insecure=insecure,
            dvs_name=dvs_name,
            uplink_pnic=uplink_pnic,
            management_network=management_network,
            management_isolation=management_isolation,
        )

        v_center_request.additional_properties = d
        return v_center_request

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
