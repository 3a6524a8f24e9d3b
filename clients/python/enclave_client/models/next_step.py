from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="NextStep")


@_attrs_define
class NextStep:
    """Where a request is on its path and who (by role) may act next.

    Attributes:
        step (str): submitted, endorse, approve, provisioning, ready or done
        actor (str): requester, pi, site_admin, pi_or_site_admin, site or empty (nobody needs to act)
        text (str): What happens next, in words
    """

    step: str
    actor: str
    text: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        step = self.step

        actor = self.actor

        text = self.text

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "step": step,
                "actor": actor,
                "text": text,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        step = d.pop("step")

        actor = d.pop("actor")

        text = d.pop("text")

        next_step = cls(
            step=step,
            actor=actor,
            text=text,
        )

        next_step.additional_properties = d
        return next_step

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
