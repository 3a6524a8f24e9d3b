from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PoolSubnet")


@_attrs_define
class PoolSubnet:
    """
    Attributes:
        id (int):
        pool (int):
        cidr (str): Canonical network, e.g. 10.10.0.0/16
        dstport (int):
    """

    id: int
    pool: int
    cidr: str
    dstport: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        pool = self.pool

        cidr: str
        cidr = self.cidr

        dstport = self.dstport

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "pool": pool,
                "cidr": cidr,
                "dstport": dstport,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        pool = d.pop("pool")

        def _parse_cidr(data: object) -> str:
            return cast(str, data)

        cidr = _parse_cidr(d.pop("cidr"))

        dstport = d.pop("dstport")

        pool_subnet = cls(
            id=id,
            pool=pool,
            cidr=cidr,
            dstport=dstport,
        )

        pool_subnet.additional_properties = d
        return pool_subnet

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
