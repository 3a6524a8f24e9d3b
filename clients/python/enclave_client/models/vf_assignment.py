from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="VFAssignment")


@_attrs_define
class VFAssignment:
    """
    Attributes:
        id (int):
        pf (int):
        host (str):
        pci_id (str):
        slot (int):
        cluster (int):
        tenant (int):
        node_name (str):
        port_guid (None | str):
        created (datetime.datetime):
    """

    id: int
    pf: int
    host: str
    pci_id: str
    slot: int
    cluster: int
    tenant: int
    node_name: str
    port_guid: None | str
    created: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        pf = self.pf

        host = self.host

        pci_id = self.pci_id

        slot = self.slot

        cluster = self.cluster

        tenant = self.tenant

        node_name = self.node_name

        port_guid: None | str
        port_guid = self.port_guid

        created = self.created.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "pf": pf,
                "host": host,
                "pci_id": pci_id,
                "slot": slot,
                "cluster": cluster,
                "tenant": tenant,
                "node_name": node_name,
                "port_guid": port_guid,
                "created": created,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        pf = d.pop("pf")

        host = d.pop("host")

        pci_id = d.pop("pci_id")

        slot = d.pop("slot")

        cluster = d.pop("cluster")

        tenant = d.pop("tenant")

        node_name = d.pop("node_name")

        def _parse_port_guid(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        port_guid = _parse_port_guid(d.pop("port_guid"))

        created = datetime.datetime.fromisoformat(d.pop("created"))

        vf_assignment = cls(
            id=id,
            pf=pf,
            host=host,
            pci_id=pci_id,
            slot=slot,
            cluster=cluster,
            tenant=tenant,
            node_name=node_name,
            port_guid=port_guid,
            created=created,
        )

        vf_assignment.additional_properties = d
        return vf_assignment

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
