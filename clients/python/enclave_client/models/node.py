from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.node_status_enum import NodeStatusEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.interface import Interface
    from ..models.node_credential import NodeCredential


T = TypeVar("T", bound="Node")


@_attrs_define
class Node:
    """
    Attributes:
        id (int):
        name (str):
        pool (int):
        capabilities (Any):
        status (NodeStatusEnum): * `pending` - Pending (enrolled, no report yet)
            * `ready` - Ready
            * `not-ready` - NotReady
        desired_generation (int):
        applied_generation (int):
        last_seen (datetime.datetime | None):
        last_report (Any):
        last_error (str):
        enrolled (datetime.datetime | None):
        credentials (list[NodeCredential]):
        wire_reads (list[int]): The schemas the agent reads (empty: never said)
        pool_schema (int | None): The schema the pool's document is written in
        wire_note (str): Whether the node cannot read or holds its pool's schema
        address (None | str | Unset): Underlay address; SNAT target
        interfaces (list[Interface] | Unset):
    """

    id: int
    name: str
    pool: int
    capabilities: Any
    status: NodeStatusEnum
    desired_generation: int
    applied_generation: int
    last_seen: datetime.datetime | None
    last_report: Any
    last_error: str
    enrolled: datetime.datetime | None
    credentials: list[NodeCredential]
    wire_reads: list[int]
    pool_schema: int | None
    wire_note: str
    address: None | str | Unset = UNSET
    interfaces: list[Interface] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        pool = self.pool

        capabilities = self.capabilities

        status = self.status.value

        desired_generation = self.desired_generation

        applied_generation = self.applied_generation

        last_seen: None | str
        if isinstance(self.last_seen, datetime.datetime):
            last_seen = self.last_seen.isoformat()
        else:
            last_seen = self.last_seen

        last_report = self.last_report

        last_error = self.last_error

        enrolled: None | str
        if isinstance(self.enrolled, datetime.datetime):
            enrolled = self.enrolled.isoformat()
        else:
            enrolled = self.enrolled

        credentials = []
        for credentials_item_data in self.credentials:
            credentials_item = credentials_item_data.to_dict()
            credentials.append(credentials_item)

        wire_reads = self.wire_reads

        pool_schema: int | None
        pool_schema = self.pool_schema

        wire_note = self.wire_note

        address: None | str | Unset
        if isinstance(self.address, Unset):
            address = UNSET
        else:
            address = self.address

        interfaces: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.interfaces, Unset):
            interfaces = []
            for interfaces_item_data in self.interfaces:
                interfaces_item = interfaces_item_data.to_dict()
                interfaces.append(interfaces_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "pool": pool,
                "capabilities": capabilities,
                "status": status,
                "desired_generation": desired_generation,
                "applied_generation": applied_generation,
                "last_seen": last_seen,
                "last_report": last_report,
                "last_error": last_error,
                "enrolled": enrolled,
                "credentials": credentials,
                "wire_reads": wire_reads,
                "pool_schema": pool_schema,
                "wire_note": wire_note,
            }
        )
        if address is not UNSET:
            field_dict["address"] = address
        if interfaces is not UNSET:
            field_dict["interfaces"] = interfaces

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.interface import Interface
        from ..models.node_credential import NodeCredential

        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        pool = d.pop("pool")

        capabilities = d.pop("capabilities")

        status = NodeStatusEnum(d.pop("status"))

        desired_generation = d.pop("desired_generation")

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

        last_report = d.pop("last_report")

        last_error = d.pop("last_error")

        def _parse_enrolled(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                enrolled_type_0 = datetime.datetime.fromisoformat(data)

                return enrolled_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        enrolled = _parse_enrolled(d.pop("enrolled"))

        credentials = []
        _credentials = d.pop("credentials")
        for credentials_item_data in _credentials:
            credentials_item = NodeCredential.from_dict(credentials_item_data)

            credentials.append(credentials_item)

        wire_reads = cast(list[int], d.pop("wire_reads"))

        def _parse_pool_schema(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        pool_schema = _parse_pool_schema(d.pop("pool_schema"))

        wire_note = d.pop("wire_note")

        def _parse_address(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        address = _parse_address(d.pop("address", UNSET))

        _interfaces = d.pop("interfaces", UNSET)
        interfaces: list[Interface] | Unset = UNSET
        if _interfaces is not UNSET:
            interfaces = []
            for interfaces_item_data in _interfaces:
                interfaces_item = Interface.from_dict(interfaces_item_data)

                interfaces.append(interfaces_item)

        node = cls(
            id=id,
            name=name,
            pool=pool,
            capabilities=capabilities,
            status=status,
            desired_generation=desired_generation,
            applied_generation=applied_generation,
            last_seen=last_seen,
            last_report=last_report,
            last_error=last_error,
            enrolled=enrolled,
            credentials=credentials,
            wire_reads=wire_reads,
            pool_schema=pool_schema,
            wire_note=wire_note,
            address=address,
            interfaces=interfaces,
        )

        node.additional_properties = d
        return node

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
