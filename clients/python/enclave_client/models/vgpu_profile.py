from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="VGPUProfile")


@_attrs_define
class VGPUProfile:
    """
    Attributes:
        id (int):
        vcenter (int):
        name (str):
        gpu_model (str):
        framebuffer_gib (int):
        per_gpu (int): Instances one GPU holds (GPU memory / framebuffer)
        profile_class (str):
        discovered (datetime.datetime | None):
    """

    id: int
    vcenter: int
    name: str
    gpu_model: str
    framebuffer_gib: int
    per_gpu: int
    profile_class: str
    discovered: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        vcenter = self.vcenter

        name = self.name

        gpu_model = self.gpu_model

        framebuffer_gib = self.framebuffer_gib

        per_gpu = self.per_gpu

        profile_class = self.profile_class

        discovered: None | str
        if isinstance(self.discovered, datetime.datetime):
            discovered = self.discovered.isoformat()
        else:
            discovered = self.discovered

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "vcenter": vcenter,
                "name": name,
                "gpu_model": gpu_model,
                "framebuffer_gib": framebuffer_gib,
                "per_gpu": per_gpu,
                "profile_class": profile_class,
                "discovered": discovered,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        vcenter = d.pop("vcenter")

        name = d.pop("name")

        gpu_model = d.pop("gpu_model")

        framebuffer_gib = d.pop("framebuffer_gib")

        per_gpu = d.pop("per_gpu")

        profile_class = d.pop("profile_class")

        def _parse_discovered(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                discovered_type_0 = datetime.datetime.fromisoformat(data)

                return discovered_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        discovered = _parse_discovered(d.pop("discovered"))

        vgpu_profile = cls(
            id=id,
            vcenter=vcenter,
            name=name,
            gpu_model=gpu_model,
            framebuffer_gib=framebuffer_gib,
            per_gpu=per_gpu,
            profile_class=profile_class,
            discovered=discovered,
        )

        vgpu_profile.additional_properties = d
        return vgpu_profile

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
