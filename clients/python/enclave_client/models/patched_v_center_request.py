from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="PatchedVCenterRequest")


@_attrs_define
class PatchedVCenterRequest:
    """A vCenter endpoint; the password is write-only and stored encrypted.

    Attributes:
        name (str | Unset):
        host (str | Unset):
        port (int | Unset):
        username (str | Unset):
        password (str | Unset): Write-only; encrypted at rest. Leave out on update to keep the current one.
        password_file (str | Unset): Path of a secret file
        verify_tls (bool | Unset): On by default; off only together with insecure
        ca_bundle (str | Unset): PEM file of trusted CAs
        insecure (bool | Unset): Lab only: skip TLS verification (shown in the UI)
        datacenter (str | Unset):
        compute_cluster (str | Unset):
        template (str | Unset):
        dvs_name (str | Unset):
        uplink_pnic (str | Unset):
        management_network (str | Unset): The one network besides the tenant's that cluster VMs get a NIC on (blank:
            none)
        management_isolation (str | Unset): How the management network keeps tenants apart (shown on the site's page)
    """

    name: str | Unset = UNSET
    host: str | Unset = UNSET
    port: int | Unset = UNSET
    username: str | Unset = UNSET
    password: str | Unset = UNSET
    password_file: str | Unset = UNSET
    verify_tls: bool | Unset = UNSET
    ca_bundle: str | Unset = UNSET
    insecure: bool | Unset = UNSET
    datacenter: str | Unset = UNSET
    compute_cluster: str | Unset = UNSET
    template: str | Unset = UNSET
    dvs_name: str | Unset = UNSET
    uplink_pnic: str | Unset = UNSET
    management_network: str | Unset = UNSET
    management_isolation: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        host = self.host

        port = self.port

        username = self.username

        password = self.password

        password_file = self.password_file

        verify_tls = self.verify_tls

        ca_bundle = self.ca_bundle

        insecure = self.insecure

        datacenter = self.datacenter

        compute_cluster = self.compute_cluster

        template = self.template

        dvs_name = self.dvs_name

        uplink_pnic = self.uplink_pnic

        management_network = self.management_network

        management_isolation = self.management_isolation

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if host is not UNSET:
            field_dict["host"] = host
        if port is not UNSET:
            field_dict["port"] = port
        if username is not UNSET:
            field_dict["username"] = username
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
        if datacenter is not UNSET:
            field_dict["datacenter"] = datacenter
        if compute_cluster is not UNSET:
            field_dict["compute_cluster"] = compute_cluster
        if template is not UNSET:
            field_dict["template"] = template
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
        name = d.pop("name", UNSET)

        host = d.pop("host", UNSET)

        port = d.pop("port", UNSET)

        username = d.pop("username", UNSET)

        password = d.pop("password", UNSET)

        password_file = d.pop("password_file", UNSET)

        verify_tls = d.pop("verify_tls", UNSET)

        ca_bundle = d.pop("ca_bundle", UNSET)

        insecure = d.pop("insecure", UNSET)

        datacenter = d.pop("datacenter", UNSET)

        compute_cluster = d.pop("compute_cluster", UNSET)

        template = d.pop("template", UNSET)

        dvs_name = d.pop("dvs_name", UNSET)

        uplink_pnic = d.pop("uplink_pnic", UNSET)

        management_network = d.pop("management_network", UNSET)

        management_isolation = d.pop("management_isolation", UNSET)

        patched_v_center_request = cls(
            name=name,
            host=host,
            port=port,
            username=username,
            password=password,
            password_file=password_file,
            verify_tls=verify_tls,
            ca_bundle=ca_bundle,
            insecure=insecure,
            datacenter=datacenter,
            compute_cluster=compute_cluster,
            template=template,
            dvs_name=dvs_name,
            uplink_pnic=uplink_pnic,
            management_network=management_network,
            management_isolation=management_isolation,
        )

        patched_v_center_request.additional_properties = d
        return patched_v_center_request

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
