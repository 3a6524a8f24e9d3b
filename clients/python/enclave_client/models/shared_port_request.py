from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="SharedPortRequest")


@_attrs_define
class SharedPortRequest:
    """Refuse keys a serializer does not know instead of dropping them silently.

    Attributes:
        fabric (int):
        guid (str):
        description (str | Unset):
    """

    fabric: int
    guid: str
    description: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        fabric = self.fabric

        guid = self.guid

        description = self.description

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "fabric": fabric,
                "guid": guid,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        fabric = d.pop("fabric")

        guid = d.pop("guid")

        description = d.pop("description", UNSET)

        shared_port_request = cls(
            fabric=fabric,
            guid=guid,
            description=description,
        )

        return shared_port_request
