from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.mode_enum import ModeEnum
from ..models.pci_device_kind_enum import PCIDeviceKindEnum
from ..models.pf_source_enum import PFSourceEnum

T = TypeVar("T", bound="PCIDevice")


@_attrs_define
class PCIDevice:
    """
    Attributes:
        id (int):
        host (int):
        host_name (str):
        pci_id (str):
        kind (PCIDeviceKindEnum): * `gpu` - GPU
            * `network` - Network adapter
            * `other` - Other PCI device
        mode (ModeEnum): * `passthrough` - DirectPath I/O (whole device)
            * `vgpu` - NVIDIA vGPU (shared)
        vendor_id (int):
        device_id (int):
        vendor_name (str):
        device_name (str):
        memory_gib (int): GPU memory (framebuffer)
        used (int): Slots held by clusters (vGPU instances or the whole)
        source (PFSourceEnum): * `discovered` - Discovered from vCenter
            * `manual` - Entered by an admin
        discovered (datetime.datetime | None):
    """

    id: int
    host: int
    host_name: str
    pci_id: str
    kind: PCIDeviceKindEnum
    mode: ModeEnum
    vendor_id: int
    device_id: int
    vendor_name: str
    device_name: str
    memory_gib: int
    used: int
    source: PFSourceEnum
    discovered: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        host = self.host

        host_name = self.host_name

        pci_id = self.pci_id

        kind = self.kind.value

        mode = self.mode.value

        vendor_id = self.vendor_id

        device_id = self.device_id

        vendor_name = self.vendor_name

        device_name = self.device_name

        memory_gib = self.memory_gib

        used = self.used

        source = self.source.value

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
                "host": host,
                "host_name": host_name,
                "pci_id": pci_id,
                "kind": kind,
                "mode": mode,
                "vendor_id": vendor_id,
                "device_id": device_id,
                "vendor_name": vendor_name,
                "device_name": device_name,
                "memory_gib": memory_gib,
                "used": used,
                "source": source,
                "discovered": discovered,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        host = d.pop("host")

        host_name = d.pop("host_name")

        pci_id = d.pop("pci_id")

        kind = PCIDeviceKindEnum(d.pop("kind"))

        mode = ModeEnum(d.pop("mode"))

        vendor_id = d.pop("vendor_id")

        device_id = d.pop("device_id")

        vendor_name = d.pop("vendor_name")

        device_name = d.pop("device_name")

        memory_gib = d.pop("memory_gib")

        used = d.pop("used")

        source = PFSourceEnum(d.pop("source"))

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

        pci_device = cls(
            id=id,
            host=host,
            host_name=host_name,
            pci_id=pci_id,
            kind=kind,
            mode=mode,
            vendor_id=vendor_id,
            device_id=device_id,
            vendor_name=vendor_name,
            device_name=device_name,
            memory_gib=memory_gib,
            used=used,
            source=source,
            discovered=discovered,
        )

        pci_device.additional_properties = d
        return pci_device

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
