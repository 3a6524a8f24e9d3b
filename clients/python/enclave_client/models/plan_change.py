from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.plan_change_kind_enum import PlanChangeKindEnum

T = TypeVar("T", bound="PlanChange")


@_attrs_define
class PlanChange:
    """
    Attributes:
        kind (PlanChangeKindEnum): * `blocked` - blocked
            * `create_dvs` - create_dvs
            * `add_dvs_hosts` - add_dvs_hosts
            * `set_dvs_mtu` - set_dvs_mtu
            * `create_portgroup` - create_portgroup
            * `set_portgroup_vlan` - set_portgroup_vlan
            * `set_portgroup_filter` - set_portgroup_filter
            * `clone_vm` - clone_vm
            * `power_off` - power_off
            * `relocate_vm` - relocate_vm
            * `reconfigure_vm` - reconfigure_vm
            * `remove_nic` - remove_nic
            * `remove_sriov_nic` - remove_sriov_nic
            * `remove_device` - remove_device
            * `remove_pvrdma_nic` - remove_pvrdma_nic
            * `add_nic` - add_nic
            * `add_sriov_nic` - add_sriov_nic
            * `add_pvrdma_nic` - add_pvrdma_nic
            * `add_passthrough` - add_passthrough
            * `add_vgpu` - add_vgpu
            * `set_uptv2` - set_uptv2
            * `customize_guest` - customize_guest
            * `power_on` - power_on
            * `destroy_vm` - destroy_vm
            * `remove_portgroup` - remove_portgroup
        target (str):
        detail (str):
        text (str):
    """

    kind: PlanChangeKindEnum
    target: str
    detail: str
    text: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        kind = self.kind.value

        target = self.target

        detail = self.detail

        text = self.text

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "kind": kind,
                "target": target,
                "detail": detail,
                "text": text,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        kind = PlanChangeKindEnum(d.pop("kind"))

        target = d.pop("target")

        detail = d.pop("detail")

        text = d.pop("text")

        plan_change = cls(
            kind=kind,
            target=target,
            detail=detail,
            text=text,
        )

        plan_change.additional_properties = d
        return plan_change

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
