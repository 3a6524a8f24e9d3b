from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.access_node import AccessNode
    from ..models.login import Login


T = TypeVar("T", bound="ClusterAccess")


@_attrs_define
class ClusterAccess:
    """How to reach a cluster: login host and address, the SSH command, every VM, and what protects it.

    Attributes:
        site (str):
        login (Login | None):
        ssh (str): For the requesting user; empty without a login node
        nodes (list[AccessNode]):
        enforcement (list[str]):
        unprotected (list[str]): Traffic no filter sees, and why
    """

    site: str
    login: Login | None
    ssh: str
    nodes: list[AccessNode]
    enforcement: list[str]
    unprotected: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.login import Login

        site = self.site

        login: dict[str, Any] | None
        if isinstance(self.login, Login):
            login = self.login.to_dict()
        else:
            login = self.login

        ssh = self.ssh

        nodes = []
        for nodes_item_data in self.nodes:
            nodes_item = nodes_item_data.to_dict()
            nodes.append(nodes_item)

        enforcement = self.enforcement

        unprotected = self.unprotected

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "site": site,
                "login": login,
                "ssh": ssh,
                "nodes": nodes,
                "enforcement": enforcement,
                "unprotected": unprotected,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.access_node import AccessNode
        from ..models.login import Login

        d = dict(src_dict)
        site = d.pop("site")

        def _parse_login(data: object) -> Login | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                login_type_1 = Login.from_dict(data)

                return login_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Login | None, data)

        login = _parse_login(d.pop("login"))

        ssh = d.pop("ssh")

        nodes = []
        _nodes = d.pop("nodes")
        for nodes_item_data in _nodes:
            nodes_item = AccessNode.from_dict(nodes_item_data)

            nodes.append(nodes_item)

        enforcement = cast(list[str], d.pop("enforcement"))

        unprotected = cast(list[str], d.pop("unprotected"))

        cluster_access = cls(
            site=site,
            login=login,
            ssh=ssh,
            nodes=nodes,
            enforcement=enforcement,
            unprotected=unprotected,
        )

        cluster_access.additional_properties = d
        return cluster_access

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
