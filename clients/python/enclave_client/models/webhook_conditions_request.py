from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="WebhookConditionsRequest")


@_attrs_define
class WebhookConditionsRequest:
    """Optional filters on an event: every key given must match.

    Attributes:
        states (list[str] | Unset): Only events whose object moved to one of these states
        objects (list[str] | Unset): Only events about these objects (as the audit log names them, e.g. astro/mpi-1)
        tenants (list[str] | Unset): Site webhooks only: only these tenants' events (slugs)
    """

    states: list[str] | Unset = UNSET
    objects: list[str] | Unset = UNSET
    tenants: list[str] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        states: list[str] | Unset = UNSET
        if not isinstance(self.states, Unset):
            states = self.states

        objects: list[str] | Unset = UNSET
        if not isinstance(self.objects, Unset):
            objects = self.objects

        tenants: list[str] | Unset = UNSET
        if not isinstance(self.tenants, Unset):
            tenants = self.tenants

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if states is not UNSET:
            field_dict["states"] = states
        if objects is not UNSET:
            field_dict["objects"] = objects
        if tenants is not UNSET:
            field_dict["tenants"] = tenants

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        states = cast(list[str], d.pop("states", UNSET))

        objects = cast(list[str], d.pop("objects", UNSET))

        tenants = cast(list[str], d.pop("tenants", UNSET))

        webhook_conditions_request = cls(
            states=states,
            objects=objects,
            tenants=tenants,
        )

        webhook_conditions_request.additional_properties = d
        return webhook_conditions_request

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
