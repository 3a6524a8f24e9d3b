from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="Quota")


@_attrs_define
class Quota:
    """
    Attributes:
        id (int):
        tenant (int):
        max_nodes (int | Unset):
        max_vcpus (int | Unset):
        max_memory_gb (int | Unset):
        max_vfs (int | Unset):
        max_segments (int | Unset):
        max_pending_segments (int | Unset): Segment requests that may await approval at once
        max_gpus (int | Unset): GPUs or vGPUs held at once
    """

    id: int
    tenant: int
    max_nodes: int | Unset = UNSET
    max_vcpus: int | Unset = UNSET
    max_memory_gb: int | Unset = UNSET
    max_vfs: int | Unset = UNSET
    max_segments: int | Unset = UNSET
    max_pending_segments: int | Unset = UNSET
    max_gpus: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        tenant = self.tenant

        max_nodes = self.max_nodes

        max_vcpus = self.max_vcpus

        max_memory_gb = self.max_memory_gb

        max_vfs = self.max_vfs

        max_segments = self.max_segments

        max_pending_segments = self.max_pending_segments

        max_gpus = self.max_gpus

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "tenant": tenant,
            }
        )
        if max_nodes is not UNSET:
            field_dict["max_nodes"] = max_nodes
        if max_vcpus is not UNSET:
            field_dict["max_vcpus"] = max_vcpus
        if max_memory_gb is not UNSET:
            field_dict["max_memory_gb"] = max_memory_gb
        if max_vfs is not UNSET:
            field_dict["max_vfs"] = max_vfs
        if max_segments is not UNSET:
            field_dict["max_segments"] = max_segments
        if max_pending_segments is not UNSET:
            field_dict["max_pending_segments"] = max_pending_segments
        if max_gpus is not UNSET:
            field_dict["max_gpus"] = max_gpus

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        tenant = d.pop("tenant")

        max_nodes = d.pop("max_nodes", UNSET)

        max_vcpus = d.pop("max_vcpus", UNSET)

        max_memory_gb = d.pop("max_memory_gb", UNSET)

        max_vfs = d.pop("max_vfs", UNSET)

        max_segments = d.pop("max_segments", UNSET)

        max_pending_segments = d.pop("max_pending_segments", UNSET)

        max_gpus = d.pop("max_gpus", UNSET)

        quota = cls(
            id=id,
            tenant=tenant,
            max_nodes=max_nodes,
            max_vcpus=max_vcpus,
            max_memory_gb=max_memory_gb,
            max_vfs=max_vfs,
            max_segments=max_segments,
            max_pending_segments=max_pending_segments,
            max_gpus=max_gpus,
        )

        quota.additional_properties = d
        return quota

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
