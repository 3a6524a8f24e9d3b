from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.fabric_kind_enum import FabricKindEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="PatchedFabricRequest")


@_attrs_define
class PatchedFabricRequest:
    """Refuse keys a serializer does not know instead of dropping them silently.

    Attributes:
        name (str | Unset):
        kind (FabricKindEnum | Unset): * `opensm` - OpenSM (partitions.conf)
            * `ufm` - NVIDIA UFM (REST API)
        description (str | Unset):
        pkey_first (int | Unset):
        pkey_last (int | Unset):
        reserved_pkeys (list[int] | Unset):
        cooldown_minutes (int | Unset): A released key cools down this long
        vf_guid_first (str | Unset):
        vf_guid_count (int | Unset):
        hosts (list[int] | Unset): Hosts with PFs on it
        pools (list[int] | Unset): Node pools on it
    """

    name: str | Unset = UNSET
    kind: FabricKindEnum | Unset = UNSET
    description: str | Unset = UNSET
    pkey_first: int | Unset = UNSET
    pkey_last: int | Unset = UNSET
    reserved_pkeys: list[int] | Unset = UNSET
    cooldown_minutes: int | Unset = UNSET
    vf_guid_first: str | Unset = UNSET
    vf_guid_count: int | Unset = UNSET
    hosts: list[int] | Unset = UNSET
    pools: list[int] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

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

        hosts: list[int] | Unset = UNSET
        if not isinstance(self.hosts, Unset):
            hosts = self.hosts

        pools: list[int] | Unset = UNSET
        if not isinstance(self.pools, Unset):
            pools = self.pools

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
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
        if hosts is not UNSET:
            field_dict["hosts"] = hosts
        if pools is not UNSET:
            field_dict["pools"] = pools

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name", UNSET)

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

        hosts = cast(list[int], d.pop("hosts", UNSET))

        pools = cast(list[int], d.pop("pools", UNSET))

        patched_fabric_request = cls(
            name=name,
            kind=kind,
            description=description,
            pkey_first=pkey_first,
            pkey_last=pkey_last,
            reserved_pkeys=reserved_pkeys,
            cooldown_minutes=cooldown_minutes,
            vf_guid_first=vf_guid_first,
            vf_guid_count=vf_guid_count,
            hosts=hosts,
            pools=pools,
        )

        return patched_fabric_request
