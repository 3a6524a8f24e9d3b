from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.partition_state_enum import PartitionStateEnum

T = TypeVar("T", bound="Partition")


@_attrs_define
class Partition:
    """A tenant's partition key on a fabric (tenants see their own only).

    Attributes:
        id (int):
        fabric (str):
        tenant (int):
        pkey (str): 0x and 4 hex digits
        state (PartitionStateEnum): * `pending` - Waiting for the fabric
            * `realized` - Programmed
            * `degraded` - Degraded (drift)
        message (str):
        allocated (datetime.datetime):
        released (datetime.datetime | None):
    """

    id: int
    fabric: str
    tenant: int
    pkey: str
    state: PartitionStateEnum
    message: str
    allocated: datetime.datetime
    released: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        fabric = self.fabric

        tenant = self.tenant

        pkey = self.pkey

        state = self.state.value

        message = self.message

        allocated = self.allocated.isoformat()

        released: None | str
        if isinstance(self.released, datetime.datetime):
            released = self.released.isoformat()
        else:
            released = self.released

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "fabric": fabric,
                "tenant": tenant,
                "pkey": pkey,
                "state": state,
                "message": message,
                "allocated": allocated,
                "released": released,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        fabric = d.pop("fabric")

        tenant = d.pop("tenant")

        pkey = d.pop("pkey")

        state = PartitionStateEnum(d.pop("state"))

        message = d.pop("message")

        allocated = datetime.datetime.fromisoformat(d.pop("allocated"))

        def _parse_released(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                released_type_0 = datetime.datetime.fromisoformat(data)

                return released_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        released = _parse_released(d.pop("released"))

        partition = cls(
            id=id,
            fabric=fabric,
            tenant=tenant,
            pkey=pkey,
            state=state,
            message=message,
            allocated=allocated,
            released=released,
        )

        partition.additional_properties = d
        return partition

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
