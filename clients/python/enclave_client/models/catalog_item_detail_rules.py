from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.catalog_item_detail_rules_data_path_type_0 import CatalogItemDetailRulesDataPathType0
    from ..models.catalog_item_detail_rules_data_path_type_1 import CatalogItemDetailRulesDataPathType1
    from ..models.catalog_item_detail_rules_gpu_mode_type_0 import CatalogItemDetailRulesGpuModeType0
    from ..models.catalog_item_detail_rules_gpu_mode_type_1 import CatalogItemDetailRulesGpuModeType1
    from ..models.catalog_item_detail_rules_gpus_per_worker_type_0 import CatalogItemDetailRulesGpusPerWorkerType0
    from ..models.catalog_item_detail_rules_gpus_per_worker_type_1 import CatalogItemDetailRulesGpusPerWorkerType1
    from ..models.catalog_item_detail_rules_interconnect_type_0 import CatalogItemDetailRulesInterconnectType0
    from ..models.catalog_item_detail_rules_interconnect_type_1 import CatalogItemDetailRulesInterconnectType1
    from ..models.catalog_item_detail_rules_login_node_type_0 import CatalogItemDetailRulesLoginNodeType0
    from ..models.catalog_item_detail_rules_login_node_type_1 import CatalogItemDetailRulesLoginNodeType1
    from ..models.catalog_item_detail_rules_memory_gb_per_node_type_0 import CatalogItemDetailRulesMemoryGbPerNodeType0
    from ..models.catalog_item_detail_rules_memory_gb_per_node_type_1 import CatalogItemDetailRulesMemoryGbPerNodeType1
    from ..models.catalog_item_detail_rules_network_mode_type_0 import CatalogItemDetailRulesNetworkModeType0
    from ..models.catalog_item_detail_rules_network_mode_type_1 import CatalogItemDetailRulesNetworkModeType1
    from ..models.catalog_item_detail_rules_nic_type_type_0 import CatalogItemDetailRulesNicTypeType0
    from ..models.catalog_item_detail_rules_nic_type_type_1 import CatalogItemDetailRulesNicTypeType1
    from ..models.catalog_item_detail_rules_vcpus_per_node_type_0 import CatalogItemDetailRulesVcpusPerNodeType0
    from ..models.catalog_item_detail_rules_vcpus_per_node_type_1 import CatalogItemDetailRulesVcpusPerNodeType1
    from ..models.catalog_item_detail_rules_vgpu_profile_type_0 import CatalogItemDetailRulesVgpuProfileType0
    from ..models.catalog_item_detail_rules_vgpu_profile_type_1 import CatalogItemDetailRulesVgpuProfileType1
    from ..models.catalog_item_detail_rules_worker_count_type_0 import CatalogItemDetailRulesWorkerCountType0
    from ..models.catalog_item_detail_rules_worker_count_type_1 import CatalogItemDetailRulesWorkerCountType1
    from ..models.catalog_item_detail_rules_workload_class_type_0 import CatalogItemDetailRulesWorkloadClassType0
    from ..models.catalog_item_detail_rules_workload_class_type_1 import CatalogItemDetailRulesWorkloadClassType1


T = TypeVar("T", bound="CatalogItemDetailRules")


@_attrs_define
class CatalogItemDetailRules:
    """Per request field: {"value": preset, "editable": bool, "min"/"max" or "choices"}

    Attributes:
        workload_class (CatalogItemDetailRulesWorkloadClassType0 | CatalogItemDetailRulesWorkloadClassType1):
        worker_count (CatalogItemDetailRulesWorkerCountType0 | CatalogItemDetailRulesWorkerCountType1):
        vcpus_per_node (CatalogItemDetailRulesVcpusPerNodeType0 | CatalogItemDetailRulesVcpusPerNodeType1):
        memory_gb_per_node (CatalogItemDetailRulesMemoryGbPerNodeType0 | CatalogItemDetailRulesMemoryGbPerNodeType1):
        login_node (CatalogItemDetailRulesLoginNodeType0 | CatalogItemDetailRulesLoginNodeType1 | Unset):
        interconnect (CatalogItemDetailRulesInterconnectType0 | CatalogItemDetailRulesInterconnectType1 | Unset):
        network_mode (CatalogItemDetailRulesNetworkModeType0 | CatalogItemDetailRulesNetworkModeType1 | Unset):
        data_path (CatalogItemDetailRulesDataPathType0 | CatalogItemDetailRulesDataPathType1 | Unset):
        nic_type (CatalogItemDetailRulesNicTypeType0 | CatalogItemDetailRulesNicTypeType1 | Unset):
        gpu_mode (CatalogItemDetailRulesGpuModeType0 | CatalogItemDetailRulesGpuModeType1 | Unset):
        gpus_per_worker (CatalogItemDetailRulesGpusPerWorkerType0 | CatalogItemDetailRulesGpusPerWorkerType1 | Unset):
        vgpu_profile (CatalogItemDetailRulesVgpuProfileType0 | CatalogItemDetailRulesVgpuProfileType1 | Unset):
    """

    workload_class: CatalogItemDetailRulesWorkloadClassType0 | CatalogItemDetailRulesWorkloadClassType1
    worker_count: CatalogItemDetailRulesWorkerCountType0 | CatalogItemDetailRulesWorkerCountType1
    vcpus_per_node: CatalogItemDetailRulesVcpusPerNodeType0 | CatalogItemDetailRulesVcpusPerNodeType1
    memory_gb_per_node: CatalogItemDetailRulesMemoryGbPerNodeType0 | CatalogItemDetailRulesMemoryGbPerNodeType1
    login_node: CatalogItemDetailRulesLoginNodeType0 | CatalogItemDetailRulesLoginNodeType1 | Unset = UNSET
    interconnect: CatalogItemDetailRulesInterconnectType0 | CatalogItemDetailRulesInterconnectType1 | Unset = UNSET
    network_mode: CatalogItemDetailRulesNetworkModeType0 | CatalogItemDetailRulesNetworkModeType1 | Unset = UNSET
    data_path: CatalogItemDetailRulesDataPathType0 | CatalogItemDetailRulesDataPathType1 | Unset = UNSET
    nic_type: CatalogItemDetailRulesNicTypeType0 | CatalogItemDetailRulesNicTypeType1 | Unset = UNSET
    gpu_mode: CatalogItemDetailRulesGpuModeType0 | CatalogItemDetailRulesGpuModeType1 | Unset = UNSET
    gpus_per_worker: CatalogItemDetailRulesGpusPerWorkerType0 | CatalogItemDetailRulesGpusPerWorkerType1 | Unset = UNSET
    vgpu_profile: CatalogItemDetailRulesVgpuProfileType0 | CatalogItemDetailRulesVgpuProfileType1 | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.catalog_item_detail_rules_data_path_type_0 import CatalogItemDetailRulesDataPathType0
        from ..models.catalog_item_detail_rules_gpu_mode_type_0 import CatalogItemDetailRulesGpuModeType0
        from ..models.catalog_item_detail_rules_gpus_per_worker_type_0 import CatalogItemDetailRulesGpusPerWorkerType0
        from ..models.catalog_item_detail_rules_interconnect_type_0 import CatalogItemDetailRulesInterconnectType0
        from ..models.catalog_item_detail_rules_login_node_type_0 import CatalogItemDetailRulesLoginNodeType0
        from ..models.catalog_item_detail_rules_memory_gb_per_node_type_0 import (
            CatalogItemDetailRulesMemoryGbPerNodeType0,
        )
        from ..models.catalog_item_detail_rules_network_mode_type_0 import CatalogItemDetailRulesNetworkModeType0
        from ..models.catalog_item_detail_rules_nic_type_type_0 import CatalogItemDetailRulesNicTypeType0
        from ..models.catalog_item_detail_rules_vcpus_per_node_type_0 import CatalogItemDetailRulesVcpusPerNodeType0
        from ..models.catalog_item_detail_rules_vgpu_profile_type_0 import CatalogItemDetailRulesVgpuProfileType0
        from ..models.catalog_item_detail_rules_worker_count_type_0 import CatalogItemDetailRulesWorkerCountType0
        from ..models.catalog_item_detail_rules_workload_class_type_0 import CatalogItemDetailRulesWorkloadClassType0

        workload_class: dict[str, Any]
        if isinstance(self.workload_class, CatalogItemDetailRulesWorkloadClassType0):
            workload_class = self.workload_class.to_dict()
        else:
            workload_class = self.workload_class.to_dict()

        worker_count: dict[str, Any]
        if isinstance(self.worker_count, CatalogItemDetailRulesWorkerCountType0):
            worker_count = self.worker_count.to_dict()
        else:
            worker_count = self.worker_count.to_dict()

        vcpus_per_node: dict[str, Any]
        if isinstance(self.vcpus_per_node, CatalogItemDetailRulesVcpusPerNodeType0):
            vcpus_per_node = self.vcpus_per_node.to_dict()
        else:
            vcpus_per_node = self.vcpus_per_node.to_dict()

        memory_gb_per_node: dict[str, Any]
        if isinstance(self.memory_gb_per_node, CatalogItemDetailRulesMemoryGbPerNodeType0):
            memory_gb_per_node = self.memory_gb_per_node.to_dict()
        else:
            memory_gb_per_node = self.memory_gb_per_node.to_dict()

        login_node: dict[str, Any] | Unset
        if isinstance(self.login_node, Unset):
            login_node = UNSET
        elif isinstance(self.login_node, CatalogItemDetailRulesLoginNodeType0):
            login_node = self.login_node.to_dict()
        else:
            login_node = self.login_node.to_dict()

        interconnect: dict[str, Any] | Unset
        if isinstance(self.interconnect, Unset):
            interconnect = UNSET
        elif isinstance(self.interconnect, CatalogItemDetailRulesInterconnectType0):
            interconnect = self.interconnect.to_dict()
        else:
            interconnect = self.interconnect.to_dict()

        network_mode: dict[str, Any] | Unset
        if isinstance(self.network_mode, Unset):
            network_mode = UNSET
        elif isinstance(self.network_mode, CatalogItemDetailRulesNetworkModeType0):
            network_mode = self.network_mode.to_dict()
        else:
            network_mode = self.network_mode.to_dict()

        data_path: dict[str, Any] | Unset
        if isinstance(self.data_path, Unset):
            data_path = UNSET
        elif isinstance(self.data_path, CatalogItemDetailRulesDataPathType0):
            data_path = self.data_path.to_dict()
        else:
            data_path = self.data_path.to_dict()

        nic_type: dict[str, Any] | Unset
        if isinstance(self.nic_type, Unset):
            nic_type = UNSET
        elif isinstance(self.nic_type, CatalogItemDetailRulesNicTypeType0):
            nic_type = self.nic_type.to_dict()
        else:
            nic_type = self.nic_type.to_dict()

        gpu_mode: dict[str, Any] | Unset
        if isinstance(self.gpu_mode, Unset):
            gpu_mode = UNSET
        elif isinstance(self.gpu_mode, CatalogItemDetailRulesGpuModeType0):
            gpu_mode = self.gpu_mode.to_dict()
        else:
            gpu_mode = self.gpu_mode.to_dict()

        gpus_per_worker: dict[str, Any] | Unset
        if isinstance(self.gpus_per_worker, Unset):
            gpus_per_worker = UNSET
        elif isinstance(self.gpus_per_worker, CatalogItemDetailRulesGpusPerWorkerType0):
            gpus_per_worker = self.gpus_per_worker.to_dict()
        else:
            gpus_per_worker = self.gpus_per_worker.to_dict()

        vgpu_profile: dict[str, Any] | Unset
        if isinstance(self.vgpu_profile, Unset):
            vgpu_profile = UNSET
        elif isinstance(self.vgpu_profile, CatalogItemDetailRulesVgpuProfileType0):
            vgpu_profile = self.vgpu_profile.to_dict()
        else:
            vgpu_profile = self.vgpu_profile.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "workload_class": workload_class,
                "worker_count": worker_count,
                "vcpus_per_node": vcpus_per_node,
                "memory_gb_per_node": memory_gb_per_node,
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
        from ..models.catalog_item_detail_rules_data_path_type_0 import CatalogItemDetailRulesDataPathType0
        from ..models.catalog_item_detail_rules_data_path_type_1 import CatalogItemDetailRulesDataPathType1
        from ..models.catalog_item_detail_rules_gpu_mode_type_0 import CatalogItemDetailRulesGpuModeType0
        from ..models.catalog_item_detail_rules_gpu_mode_type_1 import CatalogItemDetailRulesGpuModeType1
        from ..models.catalog_item_detail_rules_gpus_per_worker_type_0 import CatalogItemDetailRulesGpusPerWorkerType0
        from ..models.catalog_item_detail_rules_gpus_per_worker_type_1 import CatalogItemDetailRulesGpusPerWorkerType1
        from ..models.catalog_item_detail_rules_interconnect_type_0 import CatalogItemDetailRulesInterconnectType0
        from ..models.catalog_item_detail_rules_interconnect_type_1 import CatalogItemDetailRulesInterconnectType1
        from ..models.catalog_item_detail_rules_login_node_type_0 import CatalogItemDetailRulesLoginNodeType0
        from ..models.catalog_item_detail_rules_login_node_type_1 import CatalogItemDetailRulesLoginNodeType1
        from ..models.catalog_item_detail_rules_memory_gb_per_node_type_0 import (
            CatalogItemDetailRulesMemoryGbPerNodeType0,
        )
        from ..models.catalog_item_detail_rules_memory_gb_per_node_type_1 import (
            CatalogItemDetailRulesMemoryGbPerNodeType1,
        )
        from ..models.catalog_item_detail_rules_network_mode_type_0 import CatalogItemDetailRulesNetworkModeType0
        from ..models.catalog_item_detail_rules_network_mode_type_1 import CatalogItemDetailRulesNetworkModeType1
        from ..models.catalog_item_detail_rules_nic_type_type_0 import CatalogItemDetailRulesNicTypeType0
        from ..models.catalog_item_detail_rules_nic_type_type_1 import CatalogItemDetailRulesNicTypeType1
        from ..models.catalog_item_detail_rules_vcpus_per_node_type_0 import CatalogItemDetailRulesVcpusPerNodeType0
        from ..models.catalog_item_detail_rules_vcpus_per_node_type_1 import CatalogItemDetailRulesVcpusPerNodeType1
        from ..models.catalog_item_detail_rules_vgpu_profile_type_0 import CatalogItemDetailRulesVgpuProfileType0
        from ..models.catalog_item_detail_rules_vgpu_profile_type_1 import CatalogItemDetailRulesVgpuProfileType1
        from ..models.catalog_item_detail_rules_worker_count_type_0 import CatalogItemDetailRulesWorkerCountType0
        from ..models.catalog_item_detail_rules_worker_count_type_1 import CatalogItemDetailRulesWorkerCountType1
        from ..models.catalog_item_detail_rules_workload_class_type_0 import CatalogItemDetailRulesWorkloadClassType0
        from ..models.catalog_item_detail_rules_workload_class_type_1 import CatalogItemDetailRulesWorkloadClassType1

        d = dict(src_dict)

        def _parse_workload_class(
            data: object,
        ) -> CatalogItemDetailRulesWorkloadClassType0 | CatalogItemDetailRulesWorkloadClassType1:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                workload_class_type_0 = CatalogItemDetailRulesWorkloadClassType0.from_dict(data)

                return workload_class_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            workload_class_type_1 = CatalogItemDetailRulesWorkloadClassType1.from_dict(data)

            return workload_class_type_1

        workload_class = _parse_workload_class(d.pop("workload_class"))

        def _parse_worker_count(
            data: object,
        ) -> CatalogItemDetailRulesWorkerCountType0 | CatalogItemDetailRulesWorkerCountType1:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                worker_count_type_0 = CatalogItemDetailRulesWorkerCountType0.from_dict(data)

                return worker_count_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            worker_count_type_1 = CatalogItemDetailRulesWorkerCountType1.from_dict(data)

            return worker_count_type_1

        worker_count = _parse_worker_count(d.pop("worker_count"))

        def _parse_vcpus_per_node(
            data: object,
        ) -> CatalogItemDetailRulesVcpusPerNodeType0 | CatalogItemDetailRulesVcpusPerNodeType1:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                vcpus_per_node_type_0 = CatalogItemDetailRulesVcpusPerNodeType0.from_dict(data)

                return vcpus_per_node_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            vcpus_per_node_type_1 = CatalogItemDetailRulesVcpusPerNodeType1.from_dict(data)

            return vcpus_per_node_type_1

        vcpus_per_node = _parse_vcpus_per_node(d.pop("vcpus_per_node"))

        def _parse_memory_gb_per_node(
            data: object,
        ) -> CatalogItemDetailRulesMemoryGbPerNodeType0 | CatalogItemDetailRulesMemoryGbPerNodeType1:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                memory_gb_per_node_type_0 = CatalogItemDetailRulesMemoryGbPerNodeType0.from_dict(data)

                return memory_gb_per_node_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            memory_gb_per_node_type_1 = CatalogItemDetailRulesMemoryGbPerNodeType1.from_dict(data)

            return memory_gb_per_node_type_1

        memory_gb_per_node = _parse_memory_gb_per_node(d.pop("memory_gb_per_node"))

        def _parse_login_node(
            data: object,
        ) -> CatalogItemDetailRulesLoginNodeType0 | CatalogItemDetailRulesLoginNodeType1 | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                login_node_type_0 = CatalogItemDetailRulesLoginNodeType0.from_dict(data)

                return login_node_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            login_node_type_1 = CatalogItemDetailRulesLoginNodeType1.from_dict(data)

            return login_node_type_1

        login_node = _parse_login_node(d.pop("login_node", UNSET))

        def _parse_interconnect(
            data: object,
        ) -> CatalogItemDetailRulesInterconnectType0 | CatalogItemDetailRulesInterconnectType1 | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                interconnect_type_0 = CatalogItemDetailRulesInterconnectType0.from_dict(data)

                return interconnect_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            interconnect_type_1 = CatalogItemDetailRulesInterconnectType1.from_dict(data)

            return interconnect_type_1

        interconnect = _parse_interconnect(d.pop("interconnect", UNSET))

        def _parse_network_mode(
            data: object,
        ) -> CatalogItemDetailRulesNetworkModeType0 | CatalogItemDetailRulesNetworkModeType1 | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                network_mode_type_0 = CatalogItemDetailRulesNetworkModeType0.from_dict(data)

                return network_mode_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            network_mode_type_1 = CatalogItemDetailRulesNetworkModeType1.from_dict(data)

            return network_mode_type_1

        network_mode = _parse_network_mode(d.pop("network_mode", UNSET))

        def _parse_data_path(
            data: object,
        ) -> CatalogItemDetailRulesDataPathType0 | CatalogItemDetailRulesDataPathType1 | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                data_path_type_0 = CatalogItemDetailRulesDataPathType0.from_dict(data)

                return data_path_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            data_path_type_1 = CatalogItemDetailRulesDataPathType1.from_dict(data)

            return data_path_type_1

        data_path = _parse_data_path(d.pop("data_path", UNSET))

        def _parse_nic_type(
            data: object,
        ) -> CatalogItemDetailRulesNicTypeType0 | CatalogItemDetailRulesNicTypeType1 | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                nic_type_type_0 = CatalogItemDetailRulesNicTypeType0.from_dict(data)

                return nic_type_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            nic_type_type_1 = CatalogItemDetailRulesNicTypeType1.from_dict(data)

            return nic_type_type_1

        nic_type = _parse_nic_type(d.pop("nic_type", UNSET))

        def _parse_gpu_mode(
            data: object,
        ) -> CatalogItemDetailRulesGpuModeType0 | CatalogItemDetailRulesGpuModeType1 | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                gpu_mode_type_0 = CatalogItemDetailRulesGpuModeType0.from_dict(data)

                return gpu_mode_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            gpu_mode_type_1 = CatalogItemDetailRulesGpuModeType1.from_dict(data)

            return gpu_mode_type_1

        gpu_mode = _parse_gpu_mode(d.pop("gpu_mode", UNSET))

        def _parse_gpus_per_worker(
            data: object,
        ) -> CatalogItemDetailRulesGpusPerWorkerType0 | CatalogItemDetailRulesGpusPerWorkerType1 | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                gpus_per_worker_type_0 = CatalogItemDetailRulesGpusPerWorkerType0.from_dict(data)

                return gpus_per_worker_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            gpus_per_worker_type_1 = CatalogItemDetailRulesGpusPerWorkerType1.from_dict(data)

            return gpus_per_worker_type_1

        gpus_per_worker = _parse_gpus_per_worker(d.pop("gpus_per_worker", UNSET))

        def _parse_vgpu_profile(
            data: object,
        ) -> CatalogItemDetailRulesVgpuProfileType0 | CatalogItemDetailRulesVgpuProfileType1 | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                vgpu_profile_type_0 = CatalogItemDetailRulesVgpuProfileType0.from_dict(data)

                return vgpu_profile_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            vgpu_profile_type_1 = CatalogItemDetailRulesVgpuProfileType1.from_dict(data)

            return vgpu_profile_type_1

        vgpu_profile = _parse_vgpu_profile(d.pop("vgpu_profile", UNSET))

        catalog_item_detail_rules = cls(
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

        return catalog_item_detail_rules
