from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.events_enum import EventsEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.webhook_conditions import WebhookConditions
    from ..models.webhook_secret import WebhookSecret


T = TypeVar("T", bound="Webhook")


@_attrs_define
class Webhook:
    """A webhook: where, which events and conditions; `secret` is in the answer to create only.

    Attributes:
        id (int):
        name (str): Lowercase letters, digits and '-'
        url_redacted (str): The URL as anyone sees it once set: scheme://host/… (its path and query may hold a secret)
        url_fingerprint (str): A short keyed digest of the whole URL: the same URL, the same fingerprint
        events (list[EventsEnum]):
        secrets (list[WebhookSecret]):
        created (datetime.datetime):
        updated (datetime.datetime):
        tenant (int | None | Unset): The tenant (its owners manage it); null: a site webhook (admins)
        conditions (WebhookConditions | Unset): Optional filters on an event: every key given must match.
        enabled (bool | Unset):
    """

    id: int
    name: str
    url_redacted: str
    url_fingerprint: str
    events: list[EventsEnum]
    secrets: list[WebhookSecret]
    created: datetime.datetime
    updated: datetime.datetime
    tenant: int | None | Unset = UNSET
    conditions: WebhookConditions | Unset = UNSET
    enabled: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        url_redacted = self.url_redacted

        url_fingerprint = self.url_fingerprint

        events = []
        for events_item_data in self.events:
            events_item = events_item_data.value
            events.append(events_item)

        secrets = []
        for secrets_item_data in self.secrets:
            secrets_item = secrets_item_data.to_dict()
            secrets.append(secrets_item)

        created = self.created.isoformat()

        updated = self.updated.isoformat()

        tenant: int | None | Unset
        if isinstance(self.tenant, Unset):
            tenant = UNSET
        else:
            tenant = self.tenant

        conditions: dict[str, Any] | Unset = UNSET
        if not isinstance(self.conditions, Unset):
            conditions = self.conditions.to_dict()

        enabled = self.enabled

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "url_redacted": url_redacted,
                "url_fingerprint": url_fingerprint,
                "events": events,
                "secrets": secrets,
                "created": created,
                "updated": updated,
            }
        )
        if tenant is not UNSET:
            field_dict["tenant"] = tenant
        if conditions is not UNSET:
            field_dict["conditions"] = conditions
        if enabled is not UNSET:
            field_dict["enabled"] = enabled

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.webhook_conditions import WebhookConditions
        from ..models.webhook_secret import WebhookSecret

        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        url_redacted = d.pop("url_redacted")

        url_fingerprint = d.pop("url_fingerprint")

        events = []
        _events = d.pop("events")
        for events_item_data in _events:
            events_item = EventsEnum(events_item_data)

            events.append(events_item)

        secrets = []
        _secrets = d.pop("secrets")
        for secrets_item_data in _secrets:
            secrets_item = WebhookSecret.from_dict(secrets_item_data)

            secrets.append(secrets_item)

        created = datetime.datetime.fromisoformat(d.pop("created"))

        updated = datetime.datetime.fromisoformat(d.pop("updated"))

        def _parse_tenant(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        tenant = _parse_tenant(d.pop("tenant", UNSET))

        _conditions = d.pop("conditions", UNSET)
        conditions: WebhookConditions | Unset
        if isinstance(_conditions, Unset):
            conditions = UNSET
        else:
            conditions = WebhookConditions.from_dict(_conditions)

        enabled = d.pop("enabled", UNSET)

        webhook = cls(
            id=id,
            name=name,
            url_redacted=url_redacted,
            url_fingerprint=url_fingerprint,
            events=events,
            secrets=secrets,
            created=created,
            updated=updated,
            tenant=tenant,
            conditions=conditions,
            enabled=enabled,
        )

        webhook.additional_properties = d
        return webhook

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
