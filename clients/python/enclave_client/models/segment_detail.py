from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.data_path_enum import DataPathEnum
from ..models.segment_detail_gateway_type_2 import SegmentDetailGatewayType2
from ..models.segment_detail_subnet_type_2 import SegmentDetailSubnetType2
from ..models.segment_kind_enum import SegmentKindEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="SegmentDetail")


@_attrs_define
class SegmentDetail:
    """One segment, with what it still waits for before it is ready (not in lists: it costs queries per row).

    Attributes:
        id (int):
        tenant (int):
        name (str):
        kind (SegmentKindEnum): * `vlan` - VLAN
            * `overlay` - Overlay (VXLAN/GENEVE)
        routing_domain (str):
        effective_mtu (int):
        mtu_warning (str):
        state (str): requested, approved, provisioning, ready, error, rejected or retired
        generation (int):
        observed_generation (int):
        created (datetime.datetime):
        updated (datetime.datetime):
        waiting_for (list[str]): Why a segment on a node pool is not ready yet, e.g. its nodes' InfiniBand ports not yet
            in the tenant's partition; empty when it waits for nothing beyond its nodes
        id_pool (int | None | Unset):
        vlan_id (int | None | Unset):
        vni (int | None | Unset):
        prefix_pool (int | None | Unset):
        subnet (SegmentDetailSubnetType2 | str | Unset): A network in canonical form, e.g. 10.0.0.0/24 or fd00::/64
        gateway (SegmentDetailGatewayType2 | str | Unset): An IP address in canonical form, e.g. 10.0.0.1 or fd00::1
        mtu (int | Unset):
        data_path (DataPathEnum | Unset): * `standard` - Standard
            * `enhanced` - Enhanced data path (ENS)
            * `dpu` - DPU offload (UPTv2)
        vsphere_cluster (str | Unset):
        node_pool (int | None | Unset): Linux node pool realizing an overlay
    """

    id: int
    tenant: int
    name: str
    kind: SegmentKindEnum
    routing_domain: str
    effective_mtu: int
    mtu_warning: str
    state: str
    generation: int
    observed_generation: int
    created: datetime.datetime
    updated: datetime.datetime
    waiting_for: list[str]
    id_pool: int | None | Unset = UNSET
    vlan_id: int | None | Unset = UNSET
    vni: int | None | Unset = UNSET
    prefix_pool: int | None | Unset = UNSET
    subnet: SegmentDetailSubnetType2 | str | Unset = UNSET
    gateway: SegmentDetailGatewayType2 | str | Unset = UNSET
    mtu: int | Unset = UNSET
    data_path: DataPathEnum | Unset = UNSET
    vsphere_cluster: str | Unset = UNSET
    node_pool: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        tenant = self.tenant

        name = self.name

        kind = self.kind.value

        routing_domain = self.routing_domain

        effective_mtu = self.effective_mtu

        mtu_warning = self.mtu_warning

        state = self.state

        generation = self.generation

        observed_generation = self.observed_generation

        created = self.created.isoformat()

        updated = self.updated.isoformat()

        waiting_for = self.waiting_for

        id_pool: int | None | Unset
        if isinstance(self.id_pool, Unset):
            id_pool = UNSET
        else:
            id_pool = self.id_pool

        vlan_id: int | None | Unset
        if isinstance(self.vlan_id, Unset):
            vlan_id = UNSET
        else:
            vlan_id = self.vlan_id

        vni: int | None | Unset
        if isinstance(self.vni, Unset):
            vni = UNSET
        else:
            vni = self.vni

        prefix_pool: int | None | Unset
        if isinstance(self.prefix_pool, Unset):
            prefix_pool = UNSET
        else:
            prefix_pool = self.prefix_pool

        subnet: str | Unset
        if isinstance(self.subnet, Unset):
            subnet = UNSET
        elif isinstance(self.subnet, SegmentDetailSubnetType2):
            subnet = self.subnet.value
        else:
            subnet = self.subnet

        gateway: str | Unset
        if isinstance(self.gateway, Unset):
            gateway = UNSET
        elif isinstance(self.gateway, SegmentDetailGatewayType2):
            gateway = self.gateway.value
        else:
            gateway = self.gateway

        mtu = self.mtu

        data_path: str | Unset = UNSET
        if not isinstance(self.data_path, Unset):
            data_path = self.data_path.value

        vsphere_cluster = self.vsphere_cluster

        node_pool: int | None | Unset
        if isinstance(self.node_pool, Unset):
            node_pool = UNSET
        else:
            node_pool = self.node_pool

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "tenant": tenant,
                "name": name,
                "kind": kind,
                "routing_domain": routing_domain,
                "effective_mtu": effective_mtu,
                "mtu_warning": mtu_warning,
                "state": state,
                "generation": generation,
                "observed_generation": observed_generation,
                "created": created,
                "updated": updated,
                "waiting_for": waiting_for,
            }
        )
        if id_pool is not UNSET:
            field_dict["id_pool"] = id_pool
        if vlan_id is not UNSET:
            field_dict["vlan_id"] = vlan_id
        if vni is not UNSET:
            field_dict["vni"] = vni
        if prefix_pool is not UNSET:
            field_dict["prefix_pool"] = prefix_pool
        if subnet is not UNSET:
            field_dict["subnet"] = subnet
        if gateway is not UNSET:
            field_dict["gateway"] = gateway
        if mtu is not UNSET:
            field_dict["mtu"] = mtu
        if data_path is not UNSET:
            field_dict["data_path"] = data_path
        if vsphere_cluster is not UNSET:
            field_dict["vsphere_cluster"] = vsphere_cluster
        if node_pool is not UNSET:
            field_dict["node_pool"] = node_pool

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        tenant = d.pop("tenant")

        name = d.pop("name")

        kind = SegmentKindEnum(d.pop("kind"))

        routing_domain = d.pop("routing_domain")

        effective_mtu = d.pop("effective_mtu")

        mtu_warning = d.pop("mtu_warning")

        state = d.pop("state")

        generation = d.pop("generation")

        observed_generation = d.pop("observed_generation")

        created = datetime.datetime.fromisoformat(d.pop("created"))

        updated = datetime.datetime.fromisoformat(d.pop("updated"))

        waiting_for = cast(list[str], d.pop("waiting_for"))

        def _parse_id_pool(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        id_pool = _parse_id_pool(d.pop("id_pool", UNSET))

        def _parse_vlan_id(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        vlan_id = _parse_vlan_id(d.pop("vlan_id", UNSET))

        def _parse_vni(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        vni = _parse_vni(d.pop("vni", UNSET))

        def _parse_prefix_pool(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        prefix_pool = _parse_prefix_pool(d.pop("prefix_pool", UNSET))

        def _parse_subnet(data: object) -> SegmentDetailSubnetType2 | str | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                subnet_type_2 = SegmentDetailSubnetType2(data)

                return subnet_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(SegmentDetailSubnetType2 | str | Unset, data)

        subnet = _parse_subnet(d.pop("subnet", UNSET))

        def _parse_gateway(data: object) -> SegmentDetailGatewayType2 | str | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                gateway_type_2 = SegmentDetailGatewayType2(data)

                return gateway_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(SegmentDetailGatewayType2 | str | Unset, data)

        gateway = _parse_gateway(d.pop("gateway", UNSET))

        mtu = d.pop("mtu", UNSET)

        _data_path = d.pop("data_path", UNSET)
        data_path: DataPathEnum | Unset
        if isinstance(_data_path, Unset):
            data_path = UNSET
        else:
            data_path = DataPathEnum(_data_path)

        vsphere_cluster = d.pop("vsphere_cluster", UNSET)

        def _parse_node_pool(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        node_pool = _parse_node_pool(d.pop("node_pool", UNSET))

        segment_detail = cls(
            id=id,
            tenant=tenant,
            name=name,
            kind=kind,
            routing_domain=routing_domain,
            effective_mtu=effective_mtu,
            mtu_warning=mtu_warning,
            state=state,
            generation=generation,
            observed_generation=observed_generation,
            created=created,
            updated=updated,
            waiting_for=waiting_for,
            id_pool=id_pool,
            vlan_id=vlan_id,
            vni=vni,
            prefix_pool=prefix_pool,
            subnet=subnet,
            gateway=gateway,
            mtu=mtu,
            data_path=data_path,
            vsphere_cluster=vsphere_cluster,
            node_pool=node_pool,
        )

        segment_detail.additional_properties = d
        return segment_detail

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
