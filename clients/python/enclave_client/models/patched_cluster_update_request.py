from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.data_path_enum import DataPathEnum
from ..models.gpu_mode_enum import GpuModeEnum
from ..models.interconnect_enum import InterconnectEnum
from ..models.network_mode_enum import NetworkModeEnum
from ..models.nic_type_enum import NicTypeEnum
from ..models.workload_class_enum import WorkloadClassEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="PatchedClusterUpdateRequest")


@_attrs_define
class PatchedClusterUpdateRequest:
    """A virtual cluster request; state fields are read-only and change only through actions.

    Attributes:
        name (str | Unset):
        workload_class (WorkloadClassEnum | Unset): * `high-throughput` - High-throughput
            * `parallel-distributed` - Parallel-distributed (MPI)
            * `ml` - Machine learning
        worker_count (int | Unset): Slurm worker nodes
        vcpus_per_node (int | Unset):
        memory_gb_per_node (int | Unset):
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
        lease_end (datetime.date | Unset):
        justification (str | Unset):
        submit (bool | Unset): Submit at once Default: False.
    """

    name: str | Unset = UNSET
    workload_class: WorkloadClassEnum | Unset = UNSET
    worker_count: int | Unset = UNSET
    vcpus_per_node: int | Unset = UNSET
    memory_gb_per_node: int | Unset = UNSET
    login_node: bool | Unset = UNSET
    interconnect: InterconnectEnum | Unset = UNSET
    network_mode: NetworkModeEnum | Unset = UNSET
    data_path: DataPathEnum | Unset = UNSET
    nic_type: NicTypeEnum | Unset = UNSET
    gpu_mode: GpuModeEnum | Unset = UNSET
    gpus_per_worker: int | Unset = UNSET
    vgpu_profile: str | Unset = UNSET
    lease_end: datetime.date | Unset = UNSET
    justification: str | Unset = UNSET
    submit: bool | Unset = False
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        workload_class: str | Unset = UNSET
        if not isinstance(self.workload_class, Unset):
            workload_class = self.workload_class.value

        worker_count = self.worker_count

        vcpus_per_node = self.vcpus_per_node

        memory_gb_per_node = self.memory_gb_per_node

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

        lease_end: str | Unset = UNSET
        if not isinstance(self.lease_end, Unset):
            lease_end = self.lease_end.isoformat()

        justification = self.justification

        submit = self.submit

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if workload_class is not UNSET:
            field_dict["workload_class"] = workload_class
        if worker_count is not UNSET:
            field_dict["worker_count"] = worker_count
        if vcpus_per_node is not UNSET:
            field_dict["vcpus_per_node"] = vcpus_per_node
        if memory_gb_per_node is not UNSET:
            field_dict["memory_gb_per_node"] = memory_gb_per_node
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
        if lease_end is not UNSET:
            field_dict["lease_end"] = lease_end
        if justification is not UNSET:
            field_dict["justification"] = justification
        if submit is not UNSET:
            field_dict["submit"] = submit

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name", UNSET)

        _workload_class = d.pop("workload_class", UNSET)
        workload_class: WorkloadClassEnum | Unset
        if isinstance(_workload_class, Unset):
            workload_class = UNSET
        else:
            workload_class = WorkloadClassEnum(_workload_class)

        worker_count = d.pop("worker_count", UNSET)

        vcpus_per_node = d.pop("vcpus_per_node", UNSET)

        memory_gb_per_node = d.pop("memory_gb_per_node", UNSET)

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

        _lease_end = d.pop("lease_end", UNSET)
        lease_end: datetime.date | Unset
        if isinstance(_lease_end, Unset):
            lease_end = UNSET
        else:
            lease_end = datetime.date.fromisoformat(_lease_end)

        justification = d.pop("justification", UNSET)

        submit = d.pop("submit", UNSET)

        patched_cluster_update_request = cls(
            name=name,
            workload_class=workload_class,
            worker_count=worker_count,
            vcpus_per_node=vcpus_per_node,
            memory_gb_per_node=memory_gb_per_node,
            login_node=login_node,
            interconnect=interconnect,
            network_mode=network_mode,
            data_path=data_path,
            nic_type=nic_type,
            gpu_mode=gpu_mode,
            gpus_per_worker=gpus_per_worker,
            vgpu_profile=vgpu_profile,
            lease_end=lease_end,
            justification=justification,
            submit=submit,
        )

        patched_cluster_update_request.additional_properties = d
        return patched_cluster_update_request

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
