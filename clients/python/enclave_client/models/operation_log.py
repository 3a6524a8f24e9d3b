from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.operation_log_status_enum import OperationLogStatusEnum

T = TypeVar("T", bound="OperationLog")


@_attrs_define
class OperationLog:
    """
    Attributes:
        id (int):
        cluster (int):
        generation (int):
        key (str):
        step (str):
        status (OperationLogStatusEnum): * `started` - Started
            * `done` - Done
            * `failed` - Failed
            * `skipped` - Skipped
            * `info` - Info
        message (str):
        created (datetime.datetime):
    """

    id: int
    cluster: int
    generation: int
    key: str
    step: str
    status: OperationLogStatusEnum
    message: str
    created: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        cluster = self.cluster

        generation = self.generation

        key = self.key

        step = self.step

        status = self.status.value

        message = self.message

        created = self.created.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "cluster": cluster,
                "generation": generation,
                "key": key,
                "step": step,
                "status": status,
                "message": message,
                "created": created,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        cluster = d.pop("cluster")

        generation = d.pop("generation")

        key = d.pop("key")

        step = d.pop("step")

        status = OperationLogStatusEnum(d.pop("status"))

        message = d.pop("message")

        created = datetime.datetime.fromisoformat(d.pop("created"))

        operation_log = cls(
            id=id,
            cluster=cluster,
            generation=generation,
            key=key,
            step=step,
            status=status,
            message=message,
            created=created,
        )

        operation_log.additional_properties = d
        return operation_log

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
