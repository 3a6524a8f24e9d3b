from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.capabilities_request import CapabilitiesRequest
    from ..models.ib_port_request import IbPortRequest
    from ..models.observed_state_request_tenants import ObservedStateRequestTenants


T = TypeVar("T", bound="ObservedStateRequest")


@_attrs_define
class ObservedStateRequest:
    """The agent's report (enclave_agent.agent.Report); anything else is a 400.

    Attributes:
        generation (int):
        tenants (ObservedStateRequestTenants | Unset):
        node_errors (list[str] | Unset):
        capabilities (CapabilitiesRequest | Unset): What the agent probed (enclave_agent.plan.Capabilities).
        full (bool | Unset):
        ops (int | Unset):
        processes (int | Unset):
        seconds (float | Unset):
        ib_ports (list[IbPortRequest] | Unset):
        reads (list[int] | Unset): The desired-state schemas the agent reads, e.g. [1, 2]
    """

    generation: int
    tenants: ObservedStateRequestTenants | Unset = UNSET
    node_errors: list[str] | Unset = UNSET
    capabilities: CapabilitiesRequest | Unset = UNSET
    full: bool | Unset = UNSET
    ops: int | Unset = UNSET
    processes: int | Unset = UNSET
    seconds: float | Unset = UNSET
    ib_ports: list[IbPortRequest] | Unset = UNSET
    reads: list[int] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        generation = self.generation

        tenants: dict[str, Any] | Unset = UNSET
        if not isinstance(self.tenants, Unset):
            tenants = self.tenants.to_dict()

        node_errors: list[str] | Unset = UNSET
        if not isinstance(self.node_errors, Unset):
            node_errors = self.node_errors

        capabilities: dict[str, Any] | Unset = UNSET
        if not isinstance(self.capabilities, Unset):
            capabilities = self.capabilities.to_dict()

        full = self.full

        ops = self.ops

        processes = self.processes

        seconds = self.seconds

        ib_ports: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.ib_ports, Unset):
            ib_ports = []
            for ib_ports_item_data in self.ib_ports:
                ib_ports_item = ib_ports_item_data.to_dict()
                ib_ports.append(ib_ports_item)

        reads: list[int] | Unset = UNSET
        if not isinstance(self.reads, Unset):
            reads = self.reads

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "generation": generation,
            }
        )
        if tenants is not UNSET:
            field_dict["tenants"] = tenants
        if node_errors is not UNSET:
            field_dict["node_errors"] = node_errors
        if capabilities is not UNSET:
            field_dict["capabilities"] = capabilities
        if full is not UNSET:
            field_dict["full"] = full
        if ops is not UNSET:
            field_dict["ops"] = ops
        if processes is not UNSET:
            field_dict["processes"] = processes
        if seconds is not UNSET:
            field_dict["seconds"] = seconds
        if ib_ports is not UNSET:
            field_dict["ib_ports"] = ib_ports
        if reads is not UNSET:
            field_dict["reads"] = reads

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.capabilities_request import CapabilitiesRequest
        from ..models.ib_port_request import IbPortRequest
        from ..models.observed_state_request_tenants import ObservedStateRequestTenants

        d = dict(src_dict)
        generation = d.pop("generation")

        _tenants = d.pop("tenants", UNSET)
        tenants: ObservedStateRequestTenants | Unset
        if isinstance(_tenants, Unset):
            tenants = UNSET
        else:
            tenants = ObservedStateRequestTenants.from_dict(_tenants)

        node_errors = cast(list[str], d.pop("node_errors", UNSET))

        _capabilities = d.pop("capabilities", UNSET)
        capabilities: CapabilitiesRequest | Unset
        if isinstance(_capabilities, Unset):
            capabilities = UNSET
        else:
            capabilities = CapabilitiesRequest.from_dict(_capabilities)

        full = d.pop("full", UNSET)

        ops = d.pop("ops", UNSET)

        processes = d.pop("processes", UNSET)

        seconds = d.pop("seconds", UNSET)

        _ib_ports = d.pop("ib_ports", UNSET)
        ib_ports: list[IbPortRequest] | Unset = UNSET
        if _ib_ports is not UNSET:
            ib_ports = []
            for ib_ports_item_data in _ib_ports:
                ib_ports_item = IbPortRequest.from_dict(ib_ports_item_data)

                ib_ports.append(ib_ports_item)

        reads = cast(list[int], d.pop("reads", UNSET))

        observed_state_request = cls(
            generation=generation,
            tenants=tenants,
            node_errors=node_errors,
            capabilities=capabilities,
            full=full,
            ops=ops,
            processes=processes,
            seconds=seconds,
            ib_ports=ib_ports,
            reads=reads,
        )

        return observed_state_request
