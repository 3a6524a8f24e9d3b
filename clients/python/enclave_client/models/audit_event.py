from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.actor_kind_enum import ActorKindEnum

T = TypeVar("T", bound="AuditEvent")


@_attrs_define
class AuditEvent:
    """
    Attributes:
        id (int):
        created (datetime.datetime):
        actor_kind (ActorKindEnum): * `user` - User
            * `worker` - Worker
            * `agent` - Node agent
            * `system` - System
        actor_label (str):
        actor (int | None):
        tenant (int | None):
        action (str):
        object_type (str):
        object_id (str):
        object_repr (str):
        before (Any):
        after (Any):
        message (str):
        request_id (str):
        client_request_id (str):
        source_ip (None | str):
    """

    id: int
    created: datetime.datetime
    actor_kind: ActorKindEnum
    actor_label: str
    actor: int | None
    tenant: int | None
    action: str
    object_type: str
    object_id: str
    object_repr: str
    before: Any
    after: Any
    message: str
    request_id: str
    client_request_id: str
    source_ip: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        created = self.created.isoformat()

        actor_kind = self.actor_kind.value

        actor_label = self.actor_label

        actor: int | None
        actor = self.actor

        tenant: int | None
        tenant = self.tenant

        action = self.action

        object_type = self.object_type

        object_id = self.object_id

        object_repr = self.object_repr

        before = self.before

        after = self.after

        message = self.message

        request_id = self.request_id

        client_request_id = self.client_request_id

        source_ip: None | str
        source_ip = self.source_ip

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "created": created,
                "actor_kind": actor_kind,
                "actor_label": actor_label,
                "actor": actor,
                "tenant": tenant,
                "action": action,
                "object_type": object_type,
                "object_id": object_id,
                "object_repr": object_repr,
                "before": before,
                "after": after,
                "message": message,
                "request_id": request_id,
                "client_request_id": client_request_id,
                "source_ip": source_ip,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        created = datetime.datetime.fromisoformat(d.pop("created"))

        actor_kind = ActorKindEnum(d.pop("actor_kind"))

        actor_label = d.pop("actor_label")

        def _parse_actor(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        actor = _parse_actor(d.pop("actor"))

        def _parse_tenant(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        tenant = _parse_tenant(d.pop("tenant"))

        action = d.pop("action")

        object_type = d.pop("object_type")

        object_id = d.pop("object_id")

        object_repr = d.pop("object_repr")

        before = d.pop("before")

        after = d.pop("after")

        message = d.pop("message")

        request_id = d.pop("request_id")

        client_request_id = d.pop("client_request_id")

        def _parse_source_ip(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        source_ip = _parse_source_ip(d.pop("source_ip"))

        audit_event = cls(
            id=id,
            created=created,
            actor_kind=actor_kind,
            actor_label=actor_label,
            actor=actor,
            tenant=tenant,
            action=action,
            object_type=object_type,
            object_id=object_id,
            object_repr=object_repr,
            before=before,
            after=after,
            message=message,
            request_id=request_id,
            client_request_id=client_request_id,
            source_ip=source_ip,
        )

        audit_event.additional_properties = d
        return audit_event

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
