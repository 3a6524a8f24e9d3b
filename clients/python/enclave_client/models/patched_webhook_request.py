from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.events_enum import EventsEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.webhook_conditions_request import WebhookConditionsRequest


T = TypeVar("T", bound="PatchedWebhookRequest")


@_attrs_define
class PatchedWebhookRequest:
    """A webhook: where, which events and conditions; `secret` is in the answer to create only.

    Attributes:
        tenant (int | None | Unset): The tenant (its owners manage it); null: a site webhook (admins)
        name (str | Unset): Lowercase letters, digits and '-'
        url (str | Unset): The endpoint; loopback, private and link-local addresses are refused. Write-only: it is a
            credential (stored encrypted, shown as url_redacted and url_fingerprint); leave it out of an update to keep it
        events (list[EventsEnum] | Unset):
        conditions (WebhookConditionsRequest | Unset): Optional filters on an event: every key given must match.
        enabled (bool | Unset):
    """

    tenant: int | None | Unset = UNSET
    name: str | Unset = UNSET
    url: str | Unset = UNSET
    events: list[EventsEnum] | Unset = UNSET
    conditions: WebhookConditionsRequest | Unset = UNSET
    enabled: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        tenant: int | None | Unset
        if isinstance(self.tenant, Unset):
            tenant = UNSET
        else:
            tenant = self.tenant

        name = self.name

        url = self.url

        events: list[str] | Unset = UNSET
        if not isinstance(self.events, Unset):
            events = []
            for events_item_data in self.events:
                events_item = events_item_data.value
                events.append(events_item)

        conditions: dict[str, Any] | Unset = UNSET
        if not isinstance(self.conditions, Unset):
            conditions = self.conditions.to_dict()

        enabled = self.enabled

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if tenant is not UNSET:
            field_dict["tenant"] = tenant
        if name is not UNSET:
            field_dict["name"] = name
        if url is not UNSET:
            field_dict["url"] = url
        if events is not UNSET:
            field_dict["events"] = events
        if conditions is not UNSET:
            field_dict["conditions"] = conditions
        if enabled is not UNSET:
            field_dict["enabled"] = enabled

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.webhook_conditions_request import WebhookConditionsRequest

        d = dict(src_dict)

        def _parse_tenant(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        tenant = _parse_tenant(d.pop("tenant", UNSET))

        name = d.pop("name", UNSET)

        url = d.pop("url", UNSET)

        _events = d.pop("events", UNSET)
        events: list[EventsEnum] | Unset = UNSET
        if _events is not UNSET:
            events = []
            for events_item_data in _events:
                events_item = EventsEnum(events_item_data)

                events.append(events_item)

        _conditions = d.pop("conditions", UNSET)
        conditions: WebhookConditionsRequest | Unset
        if isinstance(_conditions, Unset):
            conditions = UNSET
        else:
            conditions = WebhookConditionsRequest.from_dict(_conditions)

        enabled = d.pop("enabled", UNSET)

        patched_webhook_request = cls(
            tenant=tenant,
            name=name,
            url=url,
            events=events,
            conditions=conditions,
            enabled=enabled,
        )

        patched_webhook_request.additional_properties = d
        return patched_webhook_request

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
