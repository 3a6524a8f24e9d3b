from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.cluster_request_type_2_data_path import ClusterRequestType2DataPath
from ..models.cluster_request_type_2_gpu_mode import ClusterRequestType2GpuMode
from ..types import UNSET, Unset

T = TypeVar("T", bound="ClusterRequestType2")


@_attrs_define
class ClusterRequestType2:
    """
    Attributes:
        gpu_mode (ClusterRequestType2GpuMode):
        gpus_per_worker (Any):
        vgpu_profile (Any | Unset):
        data_path (ClusterRequestType2DataPath | Unset):
    """

    gpu_mode: ClusterRequestType2GpuMode
    gpus_per_worker: Any
    vgpu_profile: Any | Unset = UNSET
    data_path: ClusterRequestType2DataPath | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        gpu_mode = self.gpu_mode.value

        gpus_per_worker = self.gpus_per_worker

        vgpu_profile = self.vgpu_profile

        data_path: str | Unset = UNSET
        if not isinstance(self.data_path, Unset):
            data_path = self.data_path.value

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
        if data_path is not UNSET:
            field_dict["data_path"] = data_path

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        gpu_mode = ClusterRequestType2GpuMode(d.pop("gpu_mode"))

        gpus_per_worker = d.pop("gpus_per_worker")

        vgpu_profile = d.pop("vgpu_profile", UNSET)

        _data_path = d.pop("data_path", UNSET)
        data_path: ClusterRequestType2DataPath | Unset
        if isinstance(_data_path, Unset):
            data_path = UNSET
        else:
            data_path = ClusterRequestType2DataPath(_data_path)

        cluster_request_type_2 = cls(
            gpu_mode=gpu_mode,
            gpus_per_worker=gpus_per_worker,
            vgpu_profile=vgpu_profile,
            data_path=data_path,
        )

        cluster_request_type_2.additional_properties = d
        return cluster_request_type_2

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
