from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.link_type_enum import LinkTypeEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="PatchedPhysicalFunctionUpdateRequest")


@_attrs_define
class PatchedPhysicalFunctionUpdateRequest:
    """An SR-IOV PF; NUM_OF_VFS must cover the card's enabled VFs plus one (checked by the service).

    Attributes:
        pci_id (str | Unset):
        pnic (str | Unset):
        model (str | Unset):
        port (int | Unset):
        link_type (LinkTypeEnum | Unset): * `infiniband` - InfiniBand
            * `ethernet` - Ethernet
        firmware_num_vfs (int | Unset): NUM_OF_VFS of the card: at least the max_vfs of every port of the card plus one
            (the PF)
        max_vfs (int | Unset): VFs the driver enables on this port (max_vfs)
    """

    pci_id: str | Unset = UNSET
    pnic: str | Unset = UNSET
    model: str | Unset = UNSET
    port: int | Unset = UNSET
    link_type: LinkTypeEnum | Unset = UNSET
    firmware_num_vfs: int | Unset = UNSET
    max_vfs: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        pci_id = self.pci_id

        pnic = self.pnic

        model = self.model

        port = self.port

        link_type: str | Unset = UNSET
        if not isinstance(self.link_type, Unset):
            link_type = self.link_type.value

        firmware_num_vfs = self.firmware_num_vfs

        max_vfs = self.max_vfs

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if pci_id is not UNSET:
            field_dict["pci_id"] = pci_id
        if pnic is not UNSET:
            field_dict["pnic"] = pnic
        if model is not UNSET:
            field_dict["model"] = model
        if port is not UNSET:
            field_dict["port"] = port
        if link_type is not UNSET:
            field_dict["link_type"] = link_type
        if firmware_num_vfs is not UNSET:
            field_dict["firmware_num_vfs"] = firmware_num_vfs
        if max_vfs is not UNSET:
            field_dict["max_vfs"] = max_vfs

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        pci_id = d.pop("pci_id", UNSET)

        pnic = d.pop("pnic", UNSET)

        model = d.pop("model", UNSET)

        port = d.pop("port", UNSET)

        _link_type = d.pop("link_type", UNSET)
        link_type: LinkTypeEnum | Unset
        if isinstance(_link_type, Unset):
            link_type = UNSET
        else:
            link_type = LinkTypeEnum(_link_type)

        firmware_num_vfs = d.pop("firmware_num_vfs", UNSET)

        max_vfs = d.pop("max_vfs", UNSET)

        patched_physical_function_update_request = cls(
            pci_id=pci_id,
            pnic=pnic,
            model=model,
            port=port,
            link_type=link_type,
            firmware_num_vfs=firmware_num_vfs,
            max_vfs=max_vfs,
        )

        patched_physical_function_update_request.additional_properties = d
        return patched_physical_function_update_request

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
