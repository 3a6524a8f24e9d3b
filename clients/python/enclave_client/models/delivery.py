from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.delivery_state_enum import DeliveryStateEnum

T = TypeVar("T", bound="Delivery")


@_attrs_define
class Delivery:
    """One delivery in the log: what was sent, how often, and how the receiver answered.

    Attributes:
        id (int):
        webhook (int):
        tenant (int | None):
        event_id (int | None):
        event_type (str):
        message_id (str):
        payload (Any):
        state (DeliveryStateEnum): * `pending` - Pending
            * `sending` - Sending
            * `retrying` - Retrying
            * `succeeded` - Succeeded
            * `failed` - Failed
        attempts (int):
        response_code (int | None):
        duration_ms (int | None):
        last_error (str):
        next_attempt_at (datetime.datetime | None):
        replay_of (int | None):
        created (datetime.datetime):
        updated (datetime.datetime):
    """

    id: int
    webhook: int
    tenant: int | None
    event_id: int | None
    event_type: str
    message_id: str
    payload: Any
    state: DeliveryStateEnum
    attempts: int
    response_code: int | None
    duration_ms: int | None
    last_error: str
    next_attempt_at: datetime.datetime | None
    replay_of: int | None
    created: datetime.datetime
    updated: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        webhook = self.webhook

        tenant: int | None
        tenant = self.tenant

        event_id: int | None
        event_id = self.event_id

        event_type = self.event_type

        message_id = self.message_id

        payload = self.payload

        state = self.state.value

        attempts = self.attempts

        response_code: int | None
        response_code = self.response_code

        duration_ms: int | None
        duration_ms = self.duration_ms

        last_error = self.last_error

        next_attempt_at: None | str
        if isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        replay_of: int | None
        replay_of = self.replay_of

        created = self.created.isoformat()

        updated = self.updated.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "webhook": webhook,
                "tenant": tenant,
                "event_id": event_id,
                "event_type": event_type,
                "message_id": message_id,
                "payload": payload,
                "state": state,
                "attempts": attempts,
                "response_code": response_code,
                "duration_ms": duration_ms,
                "last_error": last_error,
                "next_attempt_at": next_attempt_at,
                "replay_of": replay_of,
                "created": created,
                "updated": updated,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        webhook = d.pop("webhook")

        def _parse_tenant(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        tenant = _parse_tenant(d.pop("tenant"))

        def _parse_event_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        event_id = _parse_event_id(d.pop("event_id"))

        event_type = d.pop("event_type")

        message_id = d.pop("message_id")

        payload = d.pop("payload")

        state = DeliveryStateEnum(d.pop("state"))

        attempts = d.pop("attempts")

        def _parse_response_code(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        response_code = _parse_response_code(d.pop("response_code"))

        def _parse_duration_ms(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        duration_ms = _parse_duration_ms(d.pop("duration_ms"))

        last_error = d.pop("last_error")

        def _parse_next_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_attempt_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("next_attempt_at"))

        def _parse_replay_of(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        replay_of = _parse_replay_of(d.pop("replay_of"))

        created = datetime.datetime.fromisoformat(d.pop("created"))

        updated = datetime.datetime.fromisoformat(d.pop("updated"))

        delivery = cls(
            id=id,
            webhook=webhook,
            tenant=tenant,
            event_id=event_id,
            event_type=event_type,
            message_id=message_id,
            payload=payload,
            state=state,
            attempts=attempts,
            response_code=response_code,
            duration_ms=duration_ms,
            last_error=last_error,
            next_attempt_at=next_attempt_at,
            replay_of=replay_of,
            created=created,
            updated=updated,
        )

        delivery.additional_properties = d
        return delivery

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
