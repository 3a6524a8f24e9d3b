from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.catalog_request_request_values_data_path import CatalogRequestRequestValuesDataPath
from ..models.catalog_request_request_values_gpu_mode import CatalogRequestRequestValuesGpuMode
from ..models.catalog_request_request_values_interconnect import CatalogRequestRequestValuesInterconnect
from ..models.catalog_request_request_values_network_mode import CatalogRequestRequestValuesNetworkMode
from ..models.catalog_request_request_values_nic_type import CatalogRequestRequestValuesNicType
from ..models.catalog_request_request_values_workload_class import CatalogRequestRequestValuesWorkloadClass
from ..types import UNSET, Unset

T = TypeVar("T", bound="CatalogRequestRequestValues")


@_attrs_define
class CatalogRequestRequestValues:
    """Request fields the item lets you change

    Attributes:
        workload_class (CatalogRequestRequestValuesWorkloadClass | Unset):
        worker_count (int | Unset):
        vcpus_per_node (int | Unset):
        memory_gb_per_node (int | Unset):
        login_node (bool | Unset):
        interconnect (CatalogRequestRequestValuesInterconnect | Unset):
        network_mode (CatalogRequestRequestValuesNetworkMode | Unset):
        data_path (CatalogRequestRequestValuesDataPath | Unset):
        nic_type (CatalogRequestRequestValuesNicType | Unset):
        gpu_mode (CatalogRequestRequestValuesGpuMode | Unset):
        gpus_per_worker (int | Unset):
        vgpu_profile (str | Unset):
    """

    workload_class: CatalogRequestRequestValuesWorkloadClass | Unset = UNSET
    worker_count: int | Unset = UNSET
    vcpus_per_node: int | Unset = UNSET
    memory_gb_per_node: int | Unset = UNSET
    login_node: bool | Unset = UNSET
    interconnect: CatalogRequestRequestValuesInterconnect | Unset = UNSET
    network_mode: CatalogRequestRequestValuesNetworkMode | Unset = UNSET
    data_path: CatalogRequestRequestValuesDataPath | Unset = UNSET
    nic_type: CatalogRequestRequestValuesNicType | Unset = UNSET
    gpu_mode: CatalogRequestRequestValuesGpuMode | Unset = UNSET
    gpus_per_worker: int | Unset = UNSET
    vgpu_profile: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
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

        vgpu_profile = self.vgpu_profile

        field_dict: dict[str, Any] = {}

        field_dict.update({})
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

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        _workload_class = d.pop("workload_class", UNSET)
        workload_class: CatalogRequestRequestValuesWorkloadClass | Unset
        if isinstance(_workload_class, Unset):
            workload_class = UNSET
        else:
            workload_class = CatalogRequestRequestValuesWorkloadClass(_workload_class)

        worker_count = d.pop("worker_count", UNSET)

        vcpus_per_node = d.pop("vcpus_per_node", UNSET)

        memory_gb_per_node = d.pop("memory_gb_per_node", UNSET)

        login_node = d.pop("login_node", UNSET)

        _interconnect = d.pop("interconnect", UNSET)
        interconnect: CatalogRequestRequestValuesInterconnect | Unset
        if isinstance(_interconnect, Unset):
            interconnect = UNSET
        else:
            interconnect = CatalogRequestRequestValuesInterconnect(_interconnect)

        _network_mode = d.pop("network_mode", UNSET)
        network_mode: CatalogRequestRequestValuesNetworkMode | Unset
        if isinstance(_network_mode, Unset):
            network_mode = UNSET
        else:
            network_mode = CatalogRequestRequestValuesNetworkMode(_network_mode)

        _data_path = d.pop("data_path", UNSET)
        data_path: CatalogRequestRequestValuesDataPath | Unset
        if isinstance(_data_path, Unset):
            data_path = UNSET
        else:
            data_path = CatalogRequestRequestValuesDataPath(_data_path)

        _nic_type = d.pop("nic_type", UNSET)
        nic_type: CatalogRequestRequestValuesNicType | Unset
        if isinstance(_nic_type, Unset):
            nic_type = UNSET
        else:
            nic_type = CatalogRequestRequestValuesNicType(_nic_type)

        _gpu_mode = d.pop("gpu_mode", UNSET)
        gpu_mode: CatalogRequestRequestValuesGpuMode | Unset
        if isinstance(_gpu_mode, Unset):
            gpu_mode = UNSET
        else:
            gpu_mode = CatalogRequestRequestValuesGpuMode(_gpu_mode)

        gpus_per_worker = d.pop("gpus_per_worker", UNSET)

        vgpu_profile = d.pop("vgpu_profile", UNSET)

        catalog_request_request_values = cls(
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
        )

        return catalog_request_request_values
