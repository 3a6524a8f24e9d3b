from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ClusterOrigin")


@_attrs_define
class ClusterOrigin:
    """
    Attributes:
        id (int):
        cluster (int):
        tenant (int):
        item (int):
        item_slug (str):
        version (int):
        values (Any):
        created (datetime.datetime):
    """

    id: int
    cluster: int
    tenant: int
    item: int
    item_slug: str
    version: int
    values: Any
    created: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        cluster = self.cluster

        tenant = self.tenant

        item = self.item

        item_slug = self.item_slug

        version = self.version

        values = self.values

        created = self.created.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "cluster": cluster,
                "tenant": tenant,
                "item": item,
                "item_slug": item_slug,
                "version": version,
                "values": values,
                "created": created,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        cluster = d.pop("cluster")

        tenant = d.pop("tenant")

        item = d.pop("item")

        item_slug = d.pop("item_slug")

        version = d.pop("version")

        values = d.pop("values")

        created = datetime.datetime.fromisoformat(d.pop("created"))

        cluster_origin = cls(
            id=id,
            cluster=cluster,
            tenant=tenant,
            item=item,
            item_slug=item_slug,
            version=version,
            values=values,
            created=created,
        )

        cluster_origin.additional_properties = d
        return cluster_origin

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
