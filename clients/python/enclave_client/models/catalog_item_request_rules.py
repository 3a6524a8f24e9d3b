from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.catalog_item_request_rules_data_path_type_0 import CatalogItemRequestRulesDataPathType0
    from ..models.catalog_item_request_rules_data_path_type_1 import CatalogItemRequestRulesDataPathType1
    from ..models.catalog_item_request_rules_gpu_mode_type_0 import CatalogItemRequestRulesGpuModeType0
    from ..models.catalog_item_request_rules_gpu_mode_type_1 import CatalogItemRequestRulesGpuModeType1
    from ..models.catalog_item_request_rules_gpus_per_worker_type_0 import CatalogItemRequestRulesGpusPerWorkerType0
    from ..models.catalog_item_request_rules_gpus_per_worker_type_1 import CatalogItemRequestRulesGpusPerWorkerType1
    from ..models.catalog_item_request_rules_interconnect_type_0 import CatalogItemRequestRulesInterconnectType0
    from ..models.catalog_item_request_rules_interconnect_type_1 import CatalogItemRequestRulesInterconnectType1
    from ..models.catalog_item_request_rules_login_node_type_0 import CatalogItemRequestRulesLoginNodeType0
    from ..models.catalog_item_request_rules_login_node_type_1 import CatalogItemRequestRulesLoginNodeType1
    from ..models.catalog_item_request_rules_memory_gb_per_node_type_0 import (
        CatalogItemRequestRulesMemoryGbPerNodeType0,
    )
    from ..models.catalog_item_request_rules_memory_gb_per_node_type_1 import (
        CatalogItemRequestRulesMemoryGbPerNodeType1,
    )
    from ..models.catalog_item_request_rules_network_mode_type_0 import CatalogItemRequestRulesNetworkModeType0
    from ..models.catalog_item_request_rules_network_mode_type_1 import CatalogItemRequestRulesNetworkModeType1
    from ..models.catalog_item_request_rules_nic_type_type_0 import CatalogItemRequestRulesNicTypeType0
    from ..models.catalog_item_request_rules_nic_type_type_1 import CatalogItemRequestRulesNicTypeType1
    from ..models.catalog_item_request_rules_vcpus_per_node_type_0 import CatalogItemRequestRulesVcpusPerNodeType0
    from ..models.catalog_item_request_rules_vcpus_per_node_type_1 import CatalogItemRequestRulesVcpusPerNodeType1
    from ..models.catalog_item_request_rules_vgpu_profile_type_0 import CatalogItemRequestRulesVgpuProfileType0
    from ..models.catalog_item_request_rules_vgpu_profile_type_1 import CatalogItemRequestRulesVgpuProfileType1
    from ..models.catalog_item_request_rules_worker_count_type_0 import CatalogItemRequestRulesWorkerCountType0
    from ..models.catalog_item_request_rules_worker_count_type_1 import CatalogItemRequestRulesWorkerCountType1
    from ..models.catalog_item_request_rules_workload_class_type_0 import CatalogItemRequestRulesWorkloadClassType0
    from ..models.catalog_item_request_rules_workload_class_type_1 import CatalogItemRequestRulesWorkloadClassType1


T = TypeVar("T", bound="CatalogItemRequestRules")


@_attrs_define
class CatalogItemRequestRules:
    """Per request field: {"value": preset, "editable": bool, "min"/"max" or "choices"}

    Attributes:
        workload_class (CatalogItemRequestRulesWorkloadClassType0 | CatalogItemRequestRulesWorkloadClassType1):
        worker_count (CatalogItemRequestRulesWorkerCountType0 | CatalogItemRequestRulesWorkerCountType1):
        vcpus_per_node (CatalogItemRequestRulesVcpusPerNodeType0 | CatalogItemRequestRulesVcpusPerNodeType1):
        memory_gb_per_node (CatalogItemRequestRulesMemoryGbPerNodeType0 | CatalogItemRequestRulesMemoryGbPerNodeType1):
        login_node (CatalogItemRequestRulesLoginNodeType0 | CatalogItemRequestRulesLoginNodeType1 | Unset):
        interconnect (CatalogItemRequestRulesInterconnectType0 | CatalogItemRequestRulesInterconnectType1 | Unset):
        network_mode (CatalogItemRequestRulesNetworkModeType0 | CatalogItemRequestRulesNetworkModeType1 | Unset):
        data_path (CatalogItemRequestRulesDataPathType0 | CatalogItemRequestRulesDataPathType1 | Unset):
        nic_type (CatalogItemRequestRulesNicTypeType0 | CatalogItemRequestRulesNicTypeType1 | Unset):
        gpu_mode (CatalogItemRequestRulesGpuModeType0 | CatalogItemRequestRulesGpuModeType1 | Unset):
        gpus_per_worker (CatalogItemRequestRulesGpusPerWorkerType0 | CatalogItemRequestRulesGpusPerWorkerType1 | Unset):
        vgpu_profile (CatalogItemRequestRulesVgpuProfileType0 | CatalogItemRequestRulesVgpuProfileType1 | Unset):
    """

    workload_class: CatalogItemRequestRulesWorkloadClassType0 | CatalogItemRequestRulesWorkloadClassType1
    worker_count: CatalogItemRequestRulesWorkerCountType0 | CatalogItemRequestRulesWorkerCountType1
    vcpus_per_node: CatalogItemRequestRulesVcpusPerNodeType0 | CatalogItemRequestRulesVcpusPerNodeType1
    memory_gb_per_node: CatalogItemRequestRulesMemoryGbPerNodeType0 | CatalogItemRequestRulesMemoryGbPerNodeType1
    login_node: CatalogItemRequestRulesLoginNodeType0 | CatalogItemRequestRulesLoginNodeType1 | Unset = UNSET
    interconnect: CatalogItemRequestRulesInterconnectType0 | CatalogItemRequestRulesInterconnectType1 | Unset = UNSET
    network_mode: CatalogItemRequestRulesNetworkModeType0 | CatalogItemRequestRulesNetworkModeType1 | Unset = UNSET
    data_path: CatalogItemRequestRulesDataPathType0 | CatalogItemRequestRulesDataPathType1 | Unset = UNSET
    nic_type: CatalogItemRequestRulesNicTypeType0 | CatalogItemRequestRulesNicTypeType1 | Unset = UNSET
    gpu_mode: CatalogItemRequestRulesGpuModeType0 | CatalogItemRequestRulesGpuModeType1 | Unset = UNSET
    gpus_per_worker: CatalogItemRequestRulesGpusPerWorkerType0 | CatalogItemRequestRulesGpusPerWorkerType1 | Unset = (
        UNSET
    )
    vgpu_profile: CatalogItemRequestRulesVgpuProfileType0 | CatalogItemRequestRulesVgpuProfileType1 | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.catalog_item_request_rules_data_path_type_0 import CatalogItemRequestRulesDataPathType0
        from ..models.catalog_item_request_rules_gpu_mode_type_0 import CatalogItemRequestRulesGpuModeType0
        from ..models.catalog_item_request_rules_gpus_per_worker_type_0 import CatalogItemRequestRulesGpusPerWorkerType0
        from ..models.catalog_item_request_rules_interconnect_type_0 import CatalogItemRequestRulesInterconnectType0
        from ..models.catalog_item_request_rules_login_node_type_0 import CatalogItemRequestRulesLoginNodeType0
        from ..models.catalog_item_request_rules_memory_gb_per_node_type_0 import (
            CatalogItemRequestRulesMemoryGbPerNodeType0,
        )
        from ..models.catalog_item_request_rules_network_mode_type_0 import CatalogItemRequestRulesNetworkModeType0
        from ..models.catalog_item_request_rules_nic_type_type_0 import CatalogItemRequestRulesNicTypeType0
        from ..models.catalog_item_request_rules_vcpus_per_node_type_0 import CatalogItemRequestRulesVcpusPerNodeType0
        from ..models.catalog_item_request_rules_vgpu_profile_type_0 import CatalogItemRequestRulesVgpuProfileType0
        from ..models.catalog_item_request_rules_worker_count_type_0 import CatalogItemRequestRulesWorkerCountType0
        from ..models.catalog_item_request_rules_workload_class_type_0 import CatalogItemRequestRulesWorkloadClassType0

        workload_class: dict[str, Any]
        if isinstance(self.workload_class, CatalogItemRequestRulesWorkloadClassType0):
            workload_class = self.workload_class.to_dict()
        else:
            workload_class = self.workload_class.to_dict()

        worker_count: dict[str, Any]
        if isinstance(self.worker_count, CatalogItemRequestRulesWorkerCountType0):
            worker_count = self.worker_count.to_dict()
        else:
            worker_count = self.worker_count.to_dict()

        vcpus_per_node: dict[str, Any]
        if isinstance(self.vcpus_per_node, CatalogItemRequestRulesVcpusPerNodeType0):
            vcpus_per_node = self.vcpus_per_node.to_dict()
        else:
            vcpus_per_node = self.vcpus_per_node.to_dict()

        memory_gb_per_node: dict[str, Any]
        if isinstance(self.memory_gb_per_node, CatalogItemRequestRulesMemoryGbPerNodeType0):
            memory_gb_per_node = self.memory_gb_per_node.to_dict()
        else:
            memory_gb_per_node = self.memory_gb_per_node.to_dict()

        login_node: dict[str, Any] | Unset
        if isinstance(self.login_node, Unset):
            login_node = UNSET
        elif isinstance(self.login_node, CatalogItemRequestRulesLoginNodeType0):
            login_node = self.login_node.to_dict()
        else:
            login_node = self.login_node.to_dict()

        interconnect: dict[str, Any] | Unset
        if isinstance(self.interconnect, Unset):
            interconnect = UNSET
        elif isinstance(self.interconnect, CatalogItemRequestRulesInterconnectType0):
            interconnect = self.interconnect.to_dict()
        else:
            interconnect = self.interconnect.to_dict()

        network_mode: dict[str, Any] | Unset
        if isinstance(self.network_mode, Unset):
            network_mode = UNSET
        elif isinstance(self.network_mode, CatalogItemRequestRulesNetworkModeType0):
            network_mode = self.network_mode.to_dict()
        else:
            network_mode = self.network_mode.to_dict()

        data_path: dict[str, Any] | Unset
        if isinstance(self.data_path, Unset):
            data_path = UNSET
        elif isinstance(self.data_path, CatalogItemRequestRulesDataPathType0):
            data_path = self.data_path.to_dict()
        else:
            data_path = self.data_path.to_dict()

        nic_type: dict[str, Any] | Unset
        if isinstance(self.nic_type, Unset):
            nic_type = UNSET
        elif isinstance(self.nic_type, CatalogItemRequestRulesNicTypeType0):
            nic_type = self.nic_type.to_dict()
        else:
            nic_type = self.nic_type.to_dict()

        gpu_mode: dict[str, Any] | Unset
        if isinstance(self.gpu_mode, Unset):
            gpu_mode = UNSET
        elif isinstance(self.gpu_mode, CatalogItemRequestRulesGpuModeType0):
            gpu_mode = self.gpu_mode.to_dict()
        else:
            gpu_mode = self.gpu_mode.to_dict()

        gpus_per_worker: dict[str, Any] | Unset
        if isinstance(self.gpus_per_worker, Unset):
            gpus_per_worker = UNSET
        elif isinstance(self.gpus_per_worker, CatalogItemRequestRulesGpusPerWorkerType0):
            gpus_per_worker = self.gpus_per_worker.to_dict()
        else:
            gpus_per_worker = self.gpus_per_worker.to_dict()

        vgpu_profile: dict[str, Any] | Unset
        if isinstance(self.vgpu_profile, Unset):
            vgpu_profile = UNSET
        elif isinstance(self.vgpu_profile, CatalogItemRequestRulesVgpuProfileType0):
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
        from ..models.catalog_item_request_rules_data_path_type_0 import CatalogItemRequestRulesDataPathType0
        from ..models.catalog_item_request_rules_data_path_type_1 import CatalogItemRequestRulesDataPathType1
        from ..models.catalog_item_request_rules_gpu_mode_type_0 import CatalogItemRequestRulesGpuModeType0
        from ..models.catalog_item_request_rules_gpu_mode_type_1 import CatalogItemRequestRulesGpuModeType1
        from ..models.catalog_item_request_rules_gpus_per_worker_type_0 import CatalogItemRequestRulesGpusPerWorkerType0
        from ..models.catalog_item_request_rules_gpus_per_worker_type_1 import CatalogItemRequestRulesGpusPerWorkerType1
        from ..models.catalog_item_request_rules_interconnect_type_0 import CatalogItemRequestRulesInterconnectType0
        from ..models.catalog_item_request_rules_interconnect_type_1 import CatalogItemRequestRulesInterconnectType1
        from ..models.catalog_item_request_rules_login_node_type_0 import CatalogItemRequestRulesLoginNodeType0
        from ..models.catalog_item_request_rules_login_node_type_1 import CatalogItemRequestRulesLoginNodeType1
        from ..models.catalog_item_request_rules_memory_gb_per_node_type_0 import (
            CatalogItemRequestRulesMemoryGbPerNodeType0,
        )
        from ..models.catalog_item_request_rules_memory_gb_per_node_type_1 import (
            CatalogItemRequestRulesMemoryGbPerNodeType1,
        )
        from ..models.catalog_item_request_rules_network_mode_type_0 import CatalogItemRequestRulesNetworkModeType0
        from ..models.catalog_item_request_rules_network_mode_type_1 import CatalogItemRequestRulesNetworkModeType1
        from ..models.catalog_item_request_rules_nic_type_type_0 import CatalogItemRequestRulesNicTypeType0
        from ..models.catalog_item_request_rules_nic_type_type_1 import CatalogItemRequestRulesNicTypeType1
        from ..models.catalog_item_request_rules_vcpus_per_node_type_0 import CatalogItemRequestRulesVcpusPerNodeType0
        from ..models.catalog_item_request_rules_vcpus_per_node_type_1 import CatalogItemRequestRulesVcpusPerNodeType1
        from ..models.catalog_item_request_rules_vgpu_profile_type_0 import CatalogItemRequestRulesVgpuProfileType0
        from ..models.catalog_item_request_rules_vgpu_profile_type_1 import CatalogItemRequestRulesVgpuProfileType1
        from ..models.catalog_item_request_rules_worker_count_type_0 import CatalogItemRequestRulesWorkerCountType0
        from ..models.catalog_item_request_rules_worker_count_type_1 import CatalogItemRequestRulesWorkerCountType1
        from ..models.catalog_item_request_rules_workload_class_type_0 import CatalogItemRequestRulesWorkloadClassType0
        from ..models.catalog_item_request_rules_workload_class_type_1 import CatalogItemRequestRulesWorkloadClassType1

        d = dict(src_dict)

        def _parse_workload_class(
            data: object,
        ) -> CatalogItemRequestRulesWorkloadClassType0 | CatalogItemRequestRulesWorkloadClassType1:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                workload_class_type_0 = CatalogItemRequestRulesWorkloadClassType0.from_dict(data)

                return workload_class_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            workload_class_type_1 = CatalogItemRequestRulesWorkloadClassType1.from_dict(data)

            return workload_class_type_1

        workload_class = _parse_workload_class(d.pop("workload_class"))

        def _parse_worker_count(
            data: object,
        ) -> CatalogItemRequestRulesWorkerCountType0 | CatalogItemRequestRulesWorkerCountType1:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                worker_count_type_0 = CatalogItemRequestRulesWorkerCountType0.from_dict(data)

                return worker_count_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            worker_count_type_1 = CatalogItemRequestRulesWorkerCountType1.from_dict(data)

            return worker_count_type_1

        worker_count = _parse_worker_count(d.pop("worker_count"))

        def _parse_vcpus_per_node(
            data: object,
        ) -> CatalogItemRequestRulesVcpusPerNodeType0 | CatalogItemRequestRulesVcpusPerNodeType1:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                vcpus_per_node_type_0 = CatalogItemRequestRulesVcpusPerNodeType0.from_dict(data)

                return vcpus_per_node_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            vcpus_per_node_type_1 = CatalogItemRequestRulesVcpusPerNodeType1.from_dict(data)

            return vcpus_per_node_type_1

        vcpus_per_node = _parse_vcpus_per_node(d.pop("vcpus_per_node"))

        def _parse_memory_gb_per_node(
            data: object,
        ) -> CatalogItemRequestRulesMemoryGbPerNodeType0 | CatalogItemRequestRulesMemoryGbPerNodeType1:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                memory_gb_per_node_type_0 = CatalogItemRequestRulesMemoryGbPerNodeType0.from_dict(data)

                return memory_gb_per_node_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            memory_gb_per_node_type_1 = CatalogItemRequestRulesMemoryGbPerNodeType1.from_dict(data)

            return memory_gb_per_node_type_1

        memory_gb_per_node = _parse_memory_gb_per_node(d.pop("memory_gb_per_node"))

        def _parse_login_node(
            data: object,
        ) -> CatalogItemRequestRulesLoginNodeType0 | CatalogItemRequestRulesLoginNodeType1 | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                login_node_type_0 = CatalogItemRequestRulesLoginNodeType0.from_dict(data)

                return login_node_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            login_node_type_1 = CatalogItemRequestRulesLoginNodeType1.from_dict(data)

            return login_node_type_1

        login_node = _parse_login_node(d.pop("login_node", UNSET))

        def _parse_interconnect(
            data: object,
        ) -> CatalogItemRequestRulesInterconnectType0 | CatalogItemRequestRulesInterconnectType1 | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                interconnect_type_0 = CatalogItemRequestRulesInterconnectType0.from_dict(data)

                return interconnect_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            interconnect_type_1 = CatalogItemRequestRulesInterconnectType1.from_dict(data)

            return interconnect_type_1

        interconnect = _parse_interconnect(d.pop("interconnect", UNSET))

        def _parse_network_mode(
            data: object,
        ) -> CatalogItemRequestRulesNetworkModeType0 | CatalogItemRequestRulesNetworkModeType1 | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                network_mode_type_0 = CatalogItemRequestRulesNetworkModeType0.from_dict(data)

                return network_mode_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            network_mode_type_1 = CatalogItemRequestRulesNetworkModeType1.from_dict(data)

            return network_mode_type_1

        network_mode = _parse_network_mode(d.pop("network_mode", UNSET))

        def _parse_data_path(
            data: object,
        ) -> CatalogItemRequestRulesDataPathType0 | CatalogItemRequestRulesDataPathType1 | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                data_path_type_0 = CatalogItemRequestRulesDataPathType0.from_dict(data)

                return data_path_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            data_path_type_1 = CatalogItemRequestRulesDataPathType1.from_dict(data)

            return data_path_type_1

        data_path = _parse_data_path(d.pop("data_path", UNSET))

        def _parse_nic_type(
            data: object,
        ) -> CatalogItemRequestRulesNicTypeType0 | CatalogItemRequestRulesNicTypeType1 | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                nic_type_type_0 = CatalogItemRequestRulesNicTypeType0.from_dict(data)

                return nic_type_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            nic_type_type_1 = CatalogItemRequestRulesNicTypeType1.from_dict(data)

            return nic_type_type_1

        nic_type = _parse_nic_type(d.pop("nic_type", UNSET))

        def _parse_gpu_mode(
            data: object,
        ) -> CatalogItemRequestRulesGpuModeType0 | CatalogItemRequestRulesGpuModeType1 | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                gpu_mode_type_0 = CatalogItemRequestRulesGpuModeType0.from_dict(data)

                return gpu_mode_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            gpu_mode_type_1 = CatalogItemRequestRulesGpuModeType1.from_dict(data)

            return gpu_mode_type_1

        gpu_mode = _parse_gpu_mode(d.pop("gpu_mode", UNSET))

        def _parse_gpus_per_worker(
            data: object,
        ) -> CatalogItemRequestRulesGpusPerWorkerType0 | CatalogItemRequestRulesGpusPerWorkerType1 | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                gpus_per_worker_type_0 = CatalogItemRequestRulesGpusPerWorkerType0.from_dict(data)

                return gpus_per_worker_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            gpus_per_worker_type_1 = CatalogItemRequestRulesGpusPerWorkerType1.from_dict(data)

            return gpus_per_worker_type_1

        gpus_per_worker = _parse_gpus_per_worker(d.pop("gpus_per_worker", UNSET))

        def _parse_vgpu_profile(
            data: object,
        ) -> CatalogItemRequestRulesVgpuProfileType0 | CatalogItemRequestRulesVgpuProfileType1 | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                vgpu_profile_type_0 = CatalogItemRequestRulesVgpuProfileType0.from_dict(data)

                return vgpu_profile_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            vgpu_profile_type_1 = CatalogItemRequestRulesVgpuProfileType1.from_dict(data)

            return vgpu_profile_type_1

        vgpu_profile = _parse_vgpu_profile(d.pop("vgpu_profile", UNSET))

        catalog_item_request_rules = cls(
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

        return catalog_item_request_rules
