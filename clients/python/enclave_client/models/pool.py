from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.pool_kind_enum import PoolKindEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.pool_usage import PoolUsage


T = TypeVar("T", bound="Pool")


@_attrs_define
class Pool:
    """A pool: VLAN and VNI pools take first and last, address pools a cidr and prefix lengths (by kind).

    What no schema states: first <= last, no host bits, prefix lengths from the cidr's own, no overlap.

        Attributes:
            id (int):
            name (str):
            kind (PoolKindEnum): * `vlan` - VLAN ids
                * `vni` - VXLAN/GENEVE VNIs
                * `ipv4` - IPv4 supernet
                * `ipv6` - IPv6 supernet
                * `cgnat` - CGNAT range for node agents
            usage (PoolUsage):
            created (datetime.datetime):
            first (int | None | Unset): First id (VLAN/VNI pools)
            last (int | None | Unset): Last id (VLAN/VNI pools)
            cidr (None | str | Unset): Supernet, e.g. 10.64.0.0/16
            default_prefix_length (int | None | Unset):
            min_prefix_length (int | None | Unset): Largest block a tenant may ask for (e.g. 22 for a /22); empty: the
                default prefix length. Site admins may carve larger blocks.
            routing_domain (str | Unset):
            tenant (int | None | Unset):
            description (str | Unset):
    """

    id: int
    name: str
    kind: PoolKindEnum
    usage: PoolUsage
    created: datetime.datetime
    first: int | None | Unset = UNSET
    last: int | None | Unset = UNSET
    cidr: None | str | Unset = UNSET
    default_prefix_length: int | None | Unset = UNSET
    min_prefix_length: int | None | Unset = UNSET
    routing_domain: str | Unset = UNSET
    tenant: int | None | Unset = UNSET
    description: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        kind = self.kind.value

        usage = self.usage.to_dict()

        created = self.created.isoformat()

        first: int | None | Unset
        if isinstance(self.first, Unset):
            first = UNSET
        else:
            first = self.first

        last: int | None | Unset
        if isinstance(self.last, Unset):
            last = UNSET
        else:
            last = self.last

        cidr: None | str | Unset
        if isinstance(self.cidr, Unset):
            cidr = UNSET
        else:
            cidr = self.cidr

        default_prefix_length: int | None | Unset
        if isinstance(self.default_prefix_length, Unset):
            default_prefix_length = UNSET
        else:
            default_prefix_length = self.default_prefix_length

        min_prefix_length: int | None | Unset
        if isinstance(self.min_prefix_length, Unset):
            min_prefix_length = UNSET
        else:
            min_prefix_length = self.min_prefix_length

        routing_domain = self.routing_domain

        tenant: int | None | Unset
        if isinstance(self.tenant, Unset):
            tenant = UNSET
        else:
            tenant = self.tenant

        description = self.description

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "kind": kind,
                "usage": usage,
                "created": created,
            }
        )
        if first is not UNSET:
            field_dict["first"] = first
        if last is not UNSET:
            field_dict["last"] = last
        if cidr is not UNSET:
            field_dict["cidr"] = cidr
        if default_prefix_length is not UNSET:
            field_dict["default_prefix_length"] = default_prefix_length
        if min_prefix_length is not UNSET:
            field_dict["min_prefix_length"] = min_prefix_length
        if routing_domain is not UNSET:
            field_dict["routing_domain"] = routing_domain
        if tenant is not UNSET:
            field_dict["tenant"] = tenant
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.pool_usage import PoolUsage

        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        kind = PoolKindEnum(d.pop("kind"))

        usage = PoolUsage.from_dict(d.pop("usage"))

        created = datetime.datetime.fromisoformat(d.pop("created"))

        def _parse_first(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        first = _parse_first(d.pop("first", UNSET))

        def _parse_last(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        last = _parse_last(d.pop("last", UNSET))

        def _parse_cidr(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        cidr = _parse_cidr(d.pop("cidr", UNSET))

        def _parse_default_prefix_length(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        default_prefix_length = _parse_default_prefix_length(d.pop("default_prefix_length", UNSET))

        def _parse_min_prefix_length(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        min_prefix_length = _parse_min_prefix_length(d.pop("min_prefix_length", UNSET))

        routing_domain = d.pop("routing_domain", UNSET)

        def _parse_tenant(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        tenant = _parse_tenant(d.pop("tenant", UNSET))

        description = d.pop("description", UNSET)

        pool = cls(
            id=id,
            name=name,
            kind=kind,
            usage=usage,
            created=created,
            first=first,
            last=last,
            cidr=cidr,
            default_prefix_length=default_prefix_length,
            min_prefix_length=min_prefix_length,
            routing_domain=routing_domain,
            tenant=tenant,
            description=description,
        )

        pool.additional_properties = d
        return pool

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
