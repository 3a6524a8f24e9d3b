from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.nsx_object_kind_enum import NsxObjectKindEnum
from ..models.nsx_object_state_enum import NsxObjectStateEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="NsxObject")


@_attrs_define
class NsxObject:
    """One object Enclave owns in NSX and what NSX's realized-state API last said of it.

    Attributes:
        id (int):
        manager (int):
        path (str):
        kind (NsxObjectKindEnum): * `tier1` - Tier-1 gateway
            * `segment` - Segment
            * `service` - Service
            * `group` - Group
            * `policy` - Security policy
            * `rule` - Rule
        updated (datetime.datetime):
        tenant (int | None | Unset):
        segment (int | None | Unset):
        state (NsxObjectStateEnum | Unset): * `pending` - Pending
            * `in_progress` - In progress
            * `realized` - Realized
            * `error` - Error
        message (str | Unset):
    """

    id: int
    manager: int
    path: str
    kind: NsxObjectKindEnum
    updated: datetime.datetime
    tenant: int | None | Unset = UNSET
    segment: int | None | Unset = UNSET
    state: NsxObjectStateEnum | Unset = UNSET
    message: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        manager = self.manager

        path = self.path

        kind = self.kind.value

        updated = self.updated.isoformat()

        tenant: int | None | Unset
        if isinstance(self.tenant, Unset):
            tenant = UNSET
        else:
            tenant = self.tenant

        segment: int | None | Unset
        if isinstance(self.segment, Unset):
            segment = UNSET
        else:
            segment = self.segment

        state: str | Unset = UNSET
        if not isinstance(self.state, Unset):
            state = self.state.value

        message = self.message

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "manager": manager,
                "path": path,
                "kind": kind,
                "updated": updated,
            }
        )
        if tenant is not UNSET:
            field_dict["tenant"] = tenant
        if segment is not UNSET:
            field_dict["segment"] = segment
        if state is not UNSET:
            field_dict["state"] = state
        if message is not UNSET:
            field_dict["message"] = message

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        manager = d.pop("manager")

        path = d.pop("path")

        kind = NsxObjectKindEnum(d.pop("kind"))

        updated = datetime.datetime.fromisoformat(d.pop("updated"))

        def _parse_tenant(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        tenant = _parse_tenant(d.pop("tenant", UNSET))

        def _parse_segment(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        segment = _parse_segment(d.pop("segment", UNSET))

        _state = d.pop("state", UNSET)
        state: NsxObjectStateEnum | Unset
        if isinstance(_state, Unset):
            state = UNSET
        else:
            state = NsxObjectStateEnum(_state)

        message = d.pop("message", UNSET)

        nsx_object = cls(
            id=id,
            manager=manager,
            path=path,
            kind=kind,
            updated=updated,
            tenant=tenant,
            segment=segment,
            state=state,
            message=message,
        )

        nsx_object.additional_properties = d
        return nsx_object

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
