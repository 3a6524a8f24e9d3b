from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.link_type_enum import LinkTypeEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="PhysicalFunctionRequest")


@_attrs_define
class PhysicalFunctionRequest:
    """An SR-IOV PF; NUM_OF_VFS must cover the card's enabled VFs plus one (checked by the service).

    Attributes:
        host (int):
        pci_id (str):
        pnic (str):
        firmware_num_vfs (int): NUM_OF_VFS of the card: at least the max_vfs of every port of the card plus one (the PF)
        max_vfs (int): VFs the driver enables on this port (max_vfs)
        model (str | Unset):
        port (int | Unset):
        link_type (LinkTypeEnum | Unset): * `infiniband` - InfiniBand
            * `ethernet` - Ethernet
    """

    host: int
    pci_id: str
    pnic: str
    firmware_num_vfs: int
    max_vfs: int
    model: str | Unset = UNSET
    port: int | Unset = UNSET
    link_type: LinkTypeEnum | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        host = self.host

        pci_id = self.pci_id

        pnic = self.pnic

        firmware_num_vfs = self.firmware_num_vfs

        max_vfs = self.max_vfs

        model = self.model

        port = self.port

        link_type: str | Unset = UNSET
        if not isinstance(self.link_type, Unset):
            link_type = self.link_type.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "host": host,
                "pci_id": pci_id,
                "pnic": pnic,
                "firmware_num_vfs": firmware_num_vfs,
                "max_vfs": max_vfs,
            }
        )
        if model is not UNSET:
            field_dict["model"] = model
        if port is not UNSET:
            field_dict["port"] = port
        if link_type is not UNSET:
            field_dict["link_type"] = link_type

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        host = d.pop("host")

        pci_id = d.pop("pci_id")

        pnic = d.pop("pnic")

        firmware_num_vfs = d.pop("firmware_num_vfs")

        max_vfs = d.pop("max_vfs")

        model = d.pop("model", UNSET)

        port = d.pop("port", UNSET)

        _link_type = d.pop("link_type", UNSET)
        link_type: LinkTypeEnum | Unset
        if isinstance(_link_type, Unset):
            link_type = UNSET
        else:
            link_type = LinkTypeEnum(_link_type)

        physical_function_request = cls(
            host=host,
            pci_id=pci_id,
            pnic=pnic,
            firmware_num_vfs=firmware_num_vfs,
            max_vfs=max_vfs,
            model=model,
            port=port,
            link_type=link_type,
        )

        physical_function_request.additional_properties = d
        return physical_function_request

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
