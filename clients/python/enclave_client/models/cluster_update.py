from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.blank_enum import BlankEnum
from ..models.cluster_state_enum import ClusterStateEnum
from ..models.data_path_enum import DataPathEnum
from ..models.gpu_mode_enum import GpuModeEnum
from ..models.interconnect_enum import InterconnectEnum
from ..models.network_mode_enum import NetworkModeEnum
from ..models.nic_type_enum import NicTypeEnum
from ..models.site_kind_enum import SiteKindEnum
from ..models.workload_class_enum import WorkloadClassEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.next_step import NextStep


T = TypeVar("T", bound="ClusterUpdate")


@_attrs_define
class ClusterUpdate:
    """A virtual cluster request; state fields are read-only and change only through actions.

    Attributes:
        id (int):
        tenant (int):
        name (str):
        workload_class (WorkloadClassEnum): * `high-throughput` - High-throughput
            * `parallel-distributed` - Parallel-distributed (MPI)
            * `ml` - Machine learning
        worker_count (int): Slurm worker nodes
        vcpus_per_node (int):
        memory_gb_per_node (int):
        lease_end (datetime.date):
        justification (str):
        state (ClusterStateEnum): * `draft` - Draft
            * `submitted` - Submitted
            * `endorsed` - Endorsed
            * `approved` - Approved
            * `rejected` - Rejected
            * `provisioning` - Provisioning
            * `ready` - Ready
            * `degraded` - Degraded
            * `error` - Error
            * `decommissioning` - Decommissioning
            * `retired` - Retired
        status_message (str):
        generation (int): Bumped on every change of intent
        observed_generation (int):
        requested_by (str):
        rejection_reason (str):
        vm_count (int):
        total_vcpus (int):
        total_memory_gb (int):
        vf_count (int):
        gpu_count (int):
        site_kind (BlankEnum | SiteKindEnum): Empty until an admin approves

            * `none` - No site (recorded only)
            * `vsphere` - vSphere
        site (int | None):
        segment (int | None):
        created (datetime.datetime):
        updated (datetime.datetime):
        next_step (NextStep): Where a request is on its path and who (by role) may act next.
        login_node (bool | Unset):
        interconnect (InterconnectEnum | Unset): * `none` - None (VMXNET3 only)
            * `sriov-ib` - SR-IOV InfiniBand
            * `sriov-roce` - SR-IOV RoCE
            * `pvrdma` - PVRDMA
            * `directpath` - DirectPath I/O (whole RoCE NIC)
        network_mode (NetworkModeEnum | Unset): * `vlan` - VLAN
            * `overlay` - Overlay (GENEVE/VXLAN)
        data_path (DataPathEnum | Unset): * `standard` - Standard
            * `enhanced` - Enhanced data path (ENS)
            * `dpu` - DPU offload (UPTv2)
        nic_type (NicTypeEnum | Unset): * `vmxnet3` - VMXNET3 (paravirtual, 10+ Gb/s)
            * `e1000e` - E1000e (emulated, for guests without VMXNET3 drivers)
        gpu_mode (GpuModeEnum | Unset): * `none` - No GPUs
            * `vgpu` - NVIDIA vGPU (a share of a GPU)
            * `passthrough` - Whole GPUs (DirectPath I/O)
        gpus_per_worker (int | Unset): GPUs (or vGPUs) per worker
        vgpu_profile (str | Unset): NVIDIA vGPU profile, e.g. grid_a100-20c
    """

    id: int
    tenant: int
    name: str
    workload_class: WorkloadClassEnum
    worker_count: int
    vcpus_per_node: int
    memory_gb_per_node: int
    lease_end: datetime.date
    justification: str
    state: ClusterStateEnum
    status_message: str
    generation: int
    observed_generation: int
    requested_by: str
    rejection_reason: str
    vm_count: int
    total_vcpus: int
    total_memory_gb: int
    vf_count: int
    gpu_count: int
    site_kind: BlankEnum | SiteKindEnum
    site: int | None
    segment: int | None
    created: datetime.datetime
    updated: datetime.datetime
    next_step: NextStep
    login_node: bool | Unset = UNSET
    interconnect: InterconnectEnum | Unset = UNSET
    network_mode: NetworkModeEnum | Unset = UNSET
    data_path: DataPathEnum | Unset = UNSET
    nic_type: NicTypeEnum | Unset = UNSET
    gpu_mode: GpuModeEnum | Unset = UNSET
    gpus_per_worker: int | Unset = UNSET
    vgpu_profile: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        tenant = self.tenant

        name = self.name

        workload_class = self.workload_class.value

        worker_count = self.worker_count

        vcpus_per_node = self.vcpus_per_node

        memory_gb_per_node = self.memory_gb_per_node

        lease_end = self.lease_end.isoformat()

        justification = self.justification

        state = self.state.value

        status_message = self.status_message

        generation = self.generation

        observed_generation = self.observed_generation

        requested_by = self.requested_by

        rejection_reason = self.rejection_reason

        vm_count = self.vm_count

        total_vcpus = self.total_vcpus

        total_memory_gb = self.total_memory_gb

        vf_count = self.vf_count

        gpu_count = self.gpu_count

        site_kind: str
        if isinstance(self.site_kind, SiteKindEnum):
            site_kind = self.site_kind.value
        else:
            site_kind = self.site_kind.value

        site: int | None
        site = self.site

        segment: int | None
        segment = self.segment

        created = self.created.isoformat()

        updated = self.updated.isoformat()

        next_step = self.next_step.to_dict()

        login_node = self.login_node

        interconnect: str | Unset = UNSET
        if not isinstance(self.interconnect, Unset):
            interconnect = self.interconnect.value

        network_mode: str | Unset = UNSET
        if not isinstance(self.network_mode, Unset):
            network_mode = self.network_mode.value

        data_path: str | Unset = UNSET
        if not isinstance(self.data_path, Unset):
            data_path = self.data_path.value

        nic_type: str | Unset = UNSET
        if not isinstance(self.nic_type, Unset):
            nic_type = self.nic_type.value

        gpu_mode: str | Unset = UNSET
        if not isinstance(self.gpu_mode, Unset):
            gpu_mode = self.gpu_mode.value

        gpus_per_worker = self.gpus_per_worker

        vgpu_profile: str | Unset
        if isinstance(self.vgpu_profile, Unset):
            vgpu_profile = UNSET
        else:
            vgpu_profile = self.vgpu_profile

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "tenant": tenant,
                "name": name,
                "workload_class": workload_class,
                "worker_count": worker_count,
                "vcpus_per_node": vcpus_per_node,
                "memory_gb_per_node": memory_gb_per_node,
                "lease_end": lease_end,
                "justification": justification,
                "state": state,
                "status_message": status_message,
                "generation": generation,
                "observed_generation": observed_generation,
                "requested_by": requested_by,
                "rejection_reason": rejection_reason,
                "vm_count": vm_count,
                "total_vcpus": total_vcpus,
                "total_memory_gb": total_memory_gb,
                "vf_count": vf_count,
                "gpu_count": gpu_count,
                "site_kind": site_kind,
                "site": site,
                "segment": segment,
                "created": created,
                "updated": updated,
                "next_step": next_step,
            }
        )
        if login_node is not UNSET:
            field_dict["login_node"] = login_node
        if interconnect is not UNSET:
            field_dict["interconnect"] = interconnect
        if network_mode is not UNSET:
            field_dict["network_mode"] = network_mode
        if data_path is not UNSET:
            field_dict["data_path"] = data_path
        if nic_type is not UNSET:
            field_dict["nic_type"] = nic_type
        if gpu_mode is not UNSET:
            field_dict["gpu_mode"] = gpu_mode
        if gpus_per_worker is not UNSET:
            field_dict["gpus_per_worker"] = gpus_per_worker
        if vgpu_profile is not UNSET:
            field_dict["vgpu_profile"] = vgpu_profile

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.next_step import NextStep

        d = dict(src_dict)
        id = d.pop("id")

        tenant = d.pop("tenant")

        name = d.pop("name")

        workload_class = WorkloadClassEnum(d.pop("workload_class"))

        worker_count = d.pop("worker_count")

        vcpus_per_node = d.pop("vcpus_per_node")

        memory_gb_per_node = d.pop("memory_gb_per_node")

        lease_end = datetime.date.fromisoformat(d.pop("lease_end"))

        justification = d.pop("justification")

        state = ClusterStateEnum(d.pop("state"))

        status_message = d.pop("status_message")

        generation = d.pop("generation")

        observed_generation = d.pop("observed_generation")

        requested_by = d.pop("requested_by")

        rejection_reason = d.pop("rejection_reason")

        vm_count = d.pop("vm_count")

        total_vcpus = d.pop("total_vcpus")

        total_memory_gb = d.pop("total_memory_gb")

        vf_count = d.pop("vf_count")

        gpu_count = d.pop("gpu_count")

        def _parse_site_kind(data: object) -> BlankEnum | SiteKindEnum:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                site_kind_type_0 = SiteKindEnum(data)

                return site_kind_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, str):
                raise TypeError()
            site_kind_type_1 = BlankEnum(data)

            return site_kind_type_1

        site_kind = _parse_site_kind(d.pop("site_kind"))

        def _parse_site(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        site = _parse_site(d.pop("site"))

        def _parse_segment(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        segment = _parse_segment(d.pop("segment"))

        created = datetime.datetime.fromisoformat(d.pop("created"))

        updated = datetime.datetime.fromisoformat(d.pop("updated"))

        next_step = NextStep.from_dict(d.pop("next_step"))

        login_node = d.pop("login_node", UNSET)

        _interconnect = d.pop("interconnect", UNSET)
        interconnect: InterconnectEnum | Unset
        if isinstance(_interconnect, Unset):
            interconnect = UNSET
        else:
            interconnect = InterconnectEnum(_interconnect)

        _network_mode = d.pop("network_mode", UNSET)
        network_mode: NetworkModeEnum | Unset
        if isinstance(_network_mode, Unset):
            network_mode = UNSET
        else:
            network_mode = NetworkModeEnum(_network_mode)

        _data_path = d.pop("data_path", UNSET)
        data_path: DataPathEnum | Unset
        if isinstance(_data_path, Unset):
            data_path = UNSET
        else:
            data_path = DataPathEnum(_data_path)

        _nic_type = d.pop("nic_type", UNSET)
        nic_type: NicTypeEnum | Unset
        if isinstance(_nic_type, Unset):
            nic_type = UNSET
        else:
            nic_type = NicTypeEnum(_nic_type)

        _gpu_mode = d.pop("gpu_mode", UNSET)
        gpu_mode: GpuModeEnum | Unset
        if isinstance(_gpu_mode, Unset):
            gpu_mode = UNSET
        else:
            gpu_mode = GpuModeEnum(_gpu_mode)

        gpus_per_worker = d.pop("gpus_per_worker", UNSET)

        def _parse_vgpu_profile(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        vgpu_profile = _parse_vgpu_profile(d.pop("vgpu_profile", UNSET))

        cluster_update = cls(
            id=id,
            tenant=tenant,
            name=name,
            workload_class=workload_class,
            worker_count=worker_count,
            vcpus_per_node=vcpus_per_node,
            memory_gb_per_node=memory_gb_per_node,
            lease_end=lease_end,
            justification=justification,
            state=state,
            status_message=status_message,
            generation=generation,
            observed_generation=observed_generation,
            requested_by=requested_by,
            rejection_reason=rejection_reason,
            vm_count=vm_count,
            total_vcpus=total_vcpus,
            total_memory_gb=total_memory_gb,
            vf_count=vf_count,
            gpu_count=gpu_count,
            site_kind=site_kind,
            site=site,
            segment=segment,
            created=created,
            updated=updated,
            next_step=next_step,
            login_node=login_node,
            interconnect=interconnect,
            network_mode=network_mode,
            data_path=data_path,
            nic_type=nic_type,
            gpu_mode=gpu_mode,
            gpus_per_worker=gpus_per_worker,
            vgpu_profile=vgpu_profile,
        )

        cluster_update.additional_properties = d
        return cluster_update

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
