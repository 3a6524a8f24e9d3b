from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="FabricJoinToken")


@_attrs_define
class FabricJoinToken:
    """Refuse keys a serializer does not know instead of dropping them silently.

    Attributes:
        id (int):
        fabric (int):
        hint (str):
        expires_at (datetime.datetime):
        used_at (datetime.datetime | None):
        created (datetime.datetime):
    """

    id: int
    fabric: int
    hint: str
    expires_at: datetime.datetime
    used_at: datetime.datetime | None
    created: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        fabric = self.fabric

        hint = self.hint

        expires_at = self.expires_at.isoformat()

        used_at: None | str
        if isinstance(self.used_at, datetime.datetime):
            used_at = self.used_at.isoformat()
        else:
            used_at = self.used_at

        created = self.created.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "fabric": fabric,
                "hint": hint,
                "expires_at": expires_at,
                "used_at": used_at,
                "created": created,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        fabric = d.pop("fabric")

        hint = d.pop("hint")

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        def _parse_used_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                used_at_type_0 = datetime.datetime.fromisoformat(data)

                return used_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        used_at = _parse_used_at(d.pop("used_at"))

        created = datetime.datetime.fromisoformat(d.pop("created"))

        fabric_join_token = cls(
            id=id,
            fabric=fabric,
            hint=hint,
            expires_at=expires_at,
            used_at=used_at,
            created=created,
        )

        fabric_join_token.additional_properties = d
        return fabric_join_token

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
