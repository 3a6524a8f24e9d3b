from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.extension_state_enum import ExtensionStateEnum

T = TypeVar("T", bound="LeaseExtension")


@_attrs_define
class LeaseExtension:
    """A request to extend a lease past the site's maximum (read-only: decided through its actions).

    Attributes:
        id (int):
        cluster (int):
        lease_end (datetime.date):
        justification (str):
        state (ExtensionStateEnum): * `pending` - Waiting for a decision
            * `approved` - Approved
            * `rejected` - Rejected
            * `withdrawn` - Withdrawn (the cluster ended first) Default: ExtensionStateEnum.PENDING.
        requested_by (int):
        decided_by (int | None):
        decision_reason (str):
        created (datetime.datetime):
        decided (datetime.datetime | None):
    """

    id: int
    cluster: int
    lease_end: datetime.date
    justification: str
    requested_by: int
    decided_by: int | None
    decision_reason: str
    created: datetime.datetime
    decided: datetime.datetime | None
    state: ExtensionStateEnum = ExtensionStateEnum.PENDING
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        cluster = self.cluster

        lease_end = self.lease_end.isoformat()

        justification = self.justification

        state = self.state.value

        requested_by = self.requested_by

        decided_by: int | None
        decided_by = self.decided_by

        decision_reason = self.decision_reason

        created = self.created.isoformat()

        decided: None | str
        if isinstance(self.decided, datetime.datetime):
            decided = self.decided.isoformat()
        else:
            decided = self.decided

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "cluster": cluster,
                "lease_end": lease_end,
                "justification": justification,
                "state": state,
                "requested_by": requested_by,
                "decided_by": decided_by,
                "decision_reason": decision_reason,
                "created": created,
                "decided": decided,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        cluster = d.pop("cluster")

        lease_end = datetime.date.fromisoformat(d.pop("lease_end"))

        justification = d.pop("justification")

        state = ExtensionStateEnum(d.pop("state"))

        requested_by = d.pop("requested_by")

        def _parse_decided_by(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        decided_by = _parse_decided_by(d.pop("decided_by"))

        decision_reason = d.pop("decision_reason")

        created = datetime.datetime.fromisoformat(d.pop("created"))

        def _parse_decided(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                decided_type_0 = datetime.datetime.fromisoformat(data)

                return decided_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        decided = _parse_decided(d.pop("decided"))

        lease_extension = cls(
            id=id,
            cluster=cluster,
            lease_end=lease_end,
            justification=justification,
            state=state,
            requested_by=requested_by,
            decided_by=decided_by,
            decision_reason=decision_reason,
            created=created,
            decided=decided,
        )

        lease_extension.additional_properties = d
        return lease_extension

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
