from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.cluster_request_type_3_gpu_mode import ClusterRequestType3GpuMode
from ..models.cluster_request_type_3_nic_type import ClusterRequestType3NicType
from ..types import UNSET, Unset

T = TypeVar("T", bound="ClusterRequestType3")


@_attrs_define
class ClusterRequestType3:
    """
    Attributes:
        gpu_mode (ClusterRequestType3GpuMode):
        gpus_per_worker (Any):
        vgpu_profile (Any | Unset):
        nic_type (ClusterRequestType3NicType | Unset):
    """

    gpu_mode: ClusterRequestType3GpuMode
    gpus_per_worker: Any
    vgpu_profile: Any | Unset = UNSET
    nic_type: ClusterRequestType3NicType | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        gpu_mode = self.gpu_mode.value

        gpus_per_worker = self.gpus_per_worker

        vgpu_profile = self.vgpu_profile

        nic_type: str | Unset = UNSET
        if not isinstance(self.nic_type, Unset):
            nic_type = self.nic_type.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "gpu_mode": gpu_mode,
                "gpus_per_worker": gpus_per_worker,
            }
        )
        if vgpu_profile is not UNSET:
            field_dict["vgpu_profile"] = vgpu_profile
        if nic_type is not UNSET:
            field_dict["nic_type"] = nic_type

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        gpu_mode = ClusterRequestType3GpuMode(d.pop("gpu_mode"))

        gpus_per_worker = d.pop("gpus_per_worker")

        vgpu_profile = d.pop("vgpu_profile", UNSET)

        _nic_type = d.pop("nic_type", UNSET)
        nic_type: ClusterRequestType3NicType | Unset
        if isinstance(_nic_type, Unset):
            nic_type = UNSET
        else:
            nic_type = ClusterRequestType3NicType(_nic_type)

        cluster_request_type_3 = cls(
            gpu_mode=gpu_mode,
            gpus_per_worker=gpus_per_worker,
            vgpu_profile=vgpu_profile,
            nic_type=nic_type,
        )

        cluster_request_type_3.additional_properties = d
        return cluster_request_type_3

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
