from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.fabric_kind_enum import FabricKindEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="Fabric")


@_attrs_define
class Fabric:
    """Refuse keys a serializer does not know instead of dropping them silently.

    Attributes:
        id (int):
        name (str):
        host_ids (list[int]):
        pool_ids (list[int]):
        generation (int):
        applied_generation (int):
        last_seen (datetime.datetime | None):
        sm (Any): The subnet manager's hardening facts
        errors (str):
        drift (str): Ports whose tables differ from the desired state
        partitions (int):  Default: 0.
        created (datetime.datetime):
        kind (FabricKindEnum | Unset): * `opensm` - OpenSM (partitions.conf)
            * `ufm` - NVIDIA UFM (REST API)
        description (str | Unset):
        pkey_first (int | Unset):
        pkey_last (int | Unset):
        reserved_pkeys (list[int] | Unset):
        cooldown_minutes (int | Unset): A released key cools down this long
        vf_guid_first (str | Unset):
        vf_guid_count (int | Unset):
    """

    id: int
    name: str
    host_ids: list[int]
    pool_ids: list[int]
    generation: int
    applied_generation: int
    last_seen: datetime.datetime | None
    sm: Any
    errors: str
    drift: str
    created: datetime.datetime
    partitions: int = 0
    kind: FabricKindEnum | Unset = UNSET
    description: str | Unset = UNSET
    pkey_first: int | Unset = UNSET
    pkey_last: int | Unset = UNSET
    reserved_pkeys: list[int] | Unset = UNSET
    cooldown_minutes: int | Unset = UNSET
    vf_guid_first: str | Unset = UNSET
    vf_guid_count: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        host_ids = self.host_ids

        pool_ids = self.pool_ids

        generation = self.generation

        applied_generation = self.applied_generation

        last_seen: None | str
        if isinstance(self.last_seen, datetime.datetime):
            last_seen = self.last_seen.isoformat()
        else:
            last_seen = self.last_seen

        sm = self.sm

        errors = self.errors

        drift = self.drift

        partitions = self.partitions

        created = self.created.isoformat()

        kind: str | Unset = UNSET
        if not isinstance(self.kind, Unset):
            kind = self.kind.value

        description = self.description

        pkey_first = self.pkey_first

        pkey_last = self.pkey_last

        reserved_pkeys: list[int] | Unset = UNSET
        if not isinstance(self.reserved_pkeys, Unset):
            reserved_pkeys = self.reserved_pkeys

        cooldown_minutes = self.cooldown_minutes

        vf_guid_first: str | Unset
        if isinstance(self.vf_guid_first, Unset):
            vf_guid_first = UNSET
        else:
            vf_guid_first = self.vf_guid_first

        vf_guid_count = self.vf_guid_count

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "host_ids": host_ids,
                "pool_ids": pool_ids,
                "generation": generation,
                "applied_generation": applied_generation,
                "last_seen": last_seen,
                "sm": sm,
                "errors": errors,
                "drift": drift,
                "partitions": partitions,
                "created": created,
            }
        )
        if kind is not UNSET:
            field_dict["kind"] = kind
        if description is not UNSET:
            field_dict["description"] = description
        if pkey_first is not UNSET:
            field_dict["pkey_first"] = pkey_first
        if pkey_last is not UNSET:
            field_dict["pkey_last"] = pkey_last
        if reserved_pkeys is not UNSET:
            field_dict["reserved_pkeys"] = reserved_pkeys
        if cooldown_minutes is not UNSET:
            field_dict["cooldown_minutes"] = cooldown_minutes
        if vf_guid_first is not UNSET:
            field_dict["vf_guid_first"] = vf_guid_first
        if vf_guid_count is not UNSET:
            field_dict["vf_guid_count"] = vf_guid_count

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        host_ids = cast(list[int], d.pop("host_ids"))

        pool_ids = cast(list[int], d.pop("pool_ids"))

        generation = d.pop("generation")

        applied_generation = d.pop("applied_generation")

        def _parse_last_seen(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_seen_type_0 = datetime.datetime.fromisoformat(data)

                return last_seen_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_seen = _parse_last_seen(d.pop("last_seen"))

        sm = d.pop("sm")

        errors = d.pop("errors")

        drift = d.pop("drift")

        partitions = d.pop("partitions")

        created = datetime.datetime.fromisoformat(d.pop("created"))

        _kind = d.pop("kind", UNSET)
        kind: FabricKindEnum | Unset
        if isinstance(_kind, Unset):
            kind = UNSET
        else:
            kind = FabricKindEnum(_kind)

        description = d.pop("description", UNSET)

        pkey_first = d.pop("pkey_first", UNSET)

        pkey_last = d.pop("pkey_last", UNSET)

        reserved_pkeys = cast(list[int], d.pop("reserved_pkeys", UNSET))

        cooldown_minutes = d.pop("cooldown_minutes", UNSET)

        def _parse_vf_guid_first(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        vf_guid_first = _parse_vf_guid_first(d.pop("vf_guid_first", UNSET))

        vf_guid_count = d.pop("vf_guid_count", UNSET)

        fabric = cls(
            id=id,
            name=name,
            host_ids=host_ids,
            pool_ids=pool_ids,
            generation=generation,
            applied_generation=applied_generation,
            last_seen=last_seen,
            sm=sm,
            errors=errors,
            drift=drift,
            partitions=partitions,
            created=created,
            kind=kind,
            description=description,
            pkey_first=pkey_first,
            pkey_last=pkey_last,
            reserved_pkeys=reserved_pkeys,
            cooldown_minutes=cooldown_minutes,
            vf_guid_first=vf_guid_first,
            vf_guid_count=vf_guid_count,
        )

        fabric.additional_properties = d
        return fabric

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
