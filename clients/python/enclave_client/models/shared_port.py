from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="SharedPort")


@_attrs_define
class SharedPort:
    """Refuse keys a serializer does not know instead of dropping them silently.

    Attributes:
        id (int):
        fabric (int):
        guid (str):
        created (datetime.datetime):
        description (str | Unset):
    """

    id: int
    fabric: int
    guid: str
    created: datetime.datetime
    description: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        fabric = self.fabric

        guid = self.guid

        created = self.created.isoformat()

        description = self.description

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "fabric": fabric,
                "guid": guid,
                "created": created,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        fabric = d.pop("fabric")

        guid = d.pop("guid")

        created = datetime.datetime.fromisoformat(d.pop("created"))

        description = d.pop("description", UNSET)

        shared_port = cls(
            id=id,
            fabric=fabric,
            guid=guid,
            created=created,
            description=description,
        )

        shared_port.additional_properties = d
        return shared_port

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
