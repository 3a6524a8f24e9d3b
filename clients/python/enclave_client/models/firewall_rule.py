from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.action_enum import ActionEnum
from ..models.direction_enum import DirectionEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.firewall_rule_findings_item import FirewallRuleFindingsItem


T = TypeVar("T", bound="FirewallRule")


@_attrs_define
class FirewallRule:
    """A rule; `findings` lists analysis results about it (shadowed, redundant, exposes).

    Attributes:
        id (int):
        policy (int):
        name (str):
        sequence (int):
        action (ActionEnum): * `allow` - Allow
            * `drop` - Drop
            * `reject` - Reject
        findings (list[FirewallRuleFindingsItem]):
        created (datetime.datetime):
        updated (datetime.datetime):
        sources (list[int] | Unset): Groups; none: ANY
        destinations (list[int] | Unset): Groups; none: ANY
        services (list[int] | Unset):
        direction (DirectionEnum | Unset): * `in` - In
            * `out` - Out
            * `in-out` - In and out
        logged (bool | Unset):
        enabled (bool | Unset):
        description (str | Unset):
    """

    id: int
    policy: int
    name: str
    sequence: int
    action: ActionEnum
    findings: list[FirewallRuleFindingsItem]
    created: datetime.datetime
    updated: datetime.datetime
    sources: list[int] | Unset = UNSET
    destinations: list[int] | Unset = UNSET
    services: list[int] | Unset = UNSET
    direction: DirectionEnum | Unset = UNSET
    logged: bool | Unset = UNSET
    enabled: bool | Unset = UNSET
    description: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        policy = self.policy

        name = self.name

        sequence = self.sequence

        action = self.action.value

        findings = []
        for findings_item_data in self.findings:
            findings_item = findings_item_data.to_dict()
            findings.append(findings_item)

        created = self.created.isoformat()

        updated = self.updated.isoformat()

        sources: list[int] | Unset = UNSET
        if not isinstance(self.sources, Unset):
            sources = self.sources

        destinations: list[int] | Unset = UNSET
        if not isinstance(self.destinations, Unset):
            destinations = self.destinations

        services: list[int] | Unset = UNSET
        if not isinstance(self.services, Unset):
            services = self.services

        direction: str | Unset = UNSET
        if not isinstance(self.direction, Unset):
            direction = self.direction.value

        logged = self.logged

        enabled = self.enabled

        description = self.description

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "policy": policy,
                "name": name,
                "sequence": sequence,
                "action": action,
                "findings": findings,
                "created": created,
                "updated": updated,
            }
        )
        if sources is not UNSET:
            field_dict["sources"] = sources
        if destinations is not UNSET:
            field_dict["destinations"] = destinations
        if services is not UNSET:
            field_dict["services"] = services
        if direction is not UNSET:
            field_dict["direction"] = direction
        if logged is not UNSET:
            field_dict["logged"] = logged
        if enabled is not UNSET:
            field_dict["enabled"] = enabled
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.firewall_rule_findings_item import FirewallRuleFindingsItem

        d = dict(src_dict)
        id = d.pop("id")

        policy = d.pop("policy")

        name = d.pop("name")

        sequence = d.pop("sequence")

        action = ActionEnum(d.pop("action"))

        findings = []
        _findings = d.pop("findings")
        for findings_item_data in _findings:
            findings_item = FirewallRuleFindingsItem.from_dict(findings_item_data)

            findings.append(findings_item)

        created = datetime.datetime.fromisoformat(d.pop("created"))

        updated = datetime.datetime.fromisoformat(d.pop("updated"))

        sources = cast(list[int], d.pop("sources", UNSET))

        destinations = cast(list[int], d.pop("destinations", UNSET))

        services = cast(list[int], d.pop("services", UNSET))

        _direction = d.pop("direction", UNSET)
        direction: DirectionEnum | Unset
        if isinstance(_direction, Unset):
            direction = UNSET
        else:
            direction = DirectionEnum(_direction)

        logged = d.pop("logged", UNSET)

        enabled = d.pop("enabled", UNSET)

        description = d.pop("description", UNSET)

        firewall_rule = cls(
            id=id,
            policy=policy,
            name=name,
            sequence=sequence,
            action=action,
            findings=findings,
            created=created,
            updated=updated,
            sources=sources,
            destinations=destinations,
            services=services,
            direction=direction,
            logged=logged,
            enabled=enabled,
            description=description,
        )

        firewall_rule.additional_properties = d
        return firewall_rule

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
