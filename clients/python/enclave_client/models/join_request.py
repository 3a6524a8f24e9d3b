from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.capabilities_request import CapabilitiesRequest
    from ..models.interface_request import InterfaceRequest


T = TypeVar("T", bound="JoinRequest")


@_attrs_define
class JoinRequest:
    """Refuse keys a serializer does not know instead of dropping them silently.

    Attributes:
        token (str):
        hostname (str): The node's name (DNS label)
        capabilities (CapabilitiesRequest | Unset): What the agent probed (enclave_agent.plan.Capabilities).
        interfaces (list[InterfaceRequest] | Unset):
        reads (list[int] | Unset): The desired-state schemas the agent reads, e.g. [1, 2]
    """

    token: str
    hostname: str
    capabilities: CapabilitiesRequest | Unset = UNSET
    interfaces: list[InterfaceRequest] | Unset = UNSET
    reads: list[int] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        token = self.token

        hostname = self.hostname

        capabilities: dict[str, Any] | Unset = UNSET
        if not isinstance(self.capabilities, Unset):
            capabilities = self.capabilities.to_dict()

        interfaces: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.interfaces, Unset):
            interfaces = []
            for interfaces_item_data in self.interfaces:
                interfaces_item = interfaces_item_data.to_dict()
                interfaces.append(interfaces_item)

        reads: list[int] | Unset = UNSET
        if not isinstance(self.reads, Unset):
            reads = self.reads

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "token": token,
                "hostname": hostname,
            }
        )
        if capabilities is not UNSET:
            field_dict["capabilities"] = capabilities
        if interfaces is not UNSET:
            field_dict["interfaces"] = interfaces
        if reads is not UNSET:
            field_dict["reads"] = reads

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.capabilities_request import CapabilitiesRequest
        from ..models.interface_request import InterfaceRequest

        d = dict(src_dict)
        token = d.pop("token")

        hostname = d.pop("hostname")

        _capabilities = d.pop("capabilities", UNSET)
        capabilities: CapabilitiesRequest | Unset
        if isinstance(_capabilities, Unset):
            capabilities = UNSET
        else:
            capabilities = CapabilitiesRequest.from_dict(_capabilities)

        _interfaces = d.pop("interfaces", UNSET)
        interfaces: list[InterfaceRequest] | Unset = UNSET
        if _interfaces is not UNSET:
            interfaces = []
            for interfaces_item_data in _interfaces:
                interfaces_item = InterfaceRequest.from_dict(interfaces_item_data)

                interfaces.append(interfaces_item)

        reads = cast(list[int], d.pop("reads", UNSET))

        join_request = cls(
            token=token,
            hostname=hostname,
            capabilities=capabilities,
            interfaces=interfaces,
            reads=reads,
        )

        return join_request
