"""Desired-state document pulled from the portal: schema as dataclasses, parsing and validation."""

from __future__ import annotations

import functools
import ipaddress
import json
import re
from dataclasses import asdict, dataclass, field, replace
from enum import StrEnum

from .wire import CGNAT, IFNAMSIZ, TABLE_BASE, SchemaError, expand, vxlan_name  # noqa: F401 (re-exported)

RESERVED_TABLES = {0, 253, 254, 255}
NAME_RE = re.compile(r"^[A-Za-z0-9_.-]{1,15}$")


class StateError(ValueError):
    """The desired-state document is malformed or unsafe to apply."""


class TenantStatus(StrEnum):
    """Per-tenant realisation status reported back to the portal."""

    READY = "ready"
    NOT_READY = "not_ready"
    FAILED = "failed"


@dataclass(frozen=True)
class Interface:
    """A real (underlay) interface of the node inside an admin-defined subnet of interest."""

    name: str
    address: str  # CIDR, e.g. 10.0.0.1/24; copied onto every tenant VXLAN on this interface
    gateway: str | None = None  # next hop for off-subnet traffic (SNAT leaves here)


@dataclass(frozen=True)
class Vxlan:
    """One tenant VXLAN device on one real interface."""

    device: str
    underlay: str
    dstport: int
    address: str
    group: str | None = None
    peers: tuple[str, ...] = ()
    ttl: int = 5


@dataclass(frozen=True)
class Tenant:
    """Everything the node needs to realise one tenant."""

    id: int
    vrf: str
    table: int
    vni: int
    cgnat: str
    vxlans: tuple[Vxlan, ...] = ()
    uids: tuple[int, ...] = ()


@dataclass(frozen=True)
class Node:
    """The node this document is for."""

    name: str
    address: str  # the node's primary underlay address; SNAT target
    interfaces: tuple[Interface, ...] = ()


@dataclass(frozen=True)
class DesiredState:
    """The whole desired state of one node at one generation."""

    generation: int
    node: Node
    tenants: tuple[Tenant, ...] = ()
    nftables: str = ""
    invalid: tuple[tuple[int, str], ...] = ()  # tenants refused at parse time: (id, reason)
    source: str = field(default="", compare=False, hash=False, repr=False)  # JSON as received

    def to_json(self) -> str:
        """Serialise back to the wire format (parse(json.loads(x.to_json())) == x)."""
        if self.source:
            return self.source
        data = asdict(self)
        data.pop("source", None)
        data.pop("invalid", None)
        for t in data["tenants"]:
            t["vrf"] = {"name": t["vrf"], "table": t.pop("table")}
        return json.dumps(data, sort_keys=True, indent=1)

    def tenant_for_uid(self, uid: int) -> Tenant | None:
        """Return the tenant a POSIX UID belongs to, if any."""
        return next((t for t in self.tenants if uid in t.uids), None)


def table_for(tenant_id: int) -> int:
    """Routing table for a tenant id: arithmetic, never string concatenation."""
    table = TABLE_BASE + tenant_id
    if tenant_id < 0 or table >= 2**32:
        raise StateError(f"tenant id {tenant_id} out of range")
    return table


def cgnat_for(tenant_id: int) -> str:
    """A unique /32 from 100.64.0.0/10 for a tenant id (skipping the network address)."""
    if not 0 <= tenant_id < CGNAT.num_addresses - 2:
        raise StateError(f"tenant id {tenant_id} does not fit in 100.64.0.0/10")
    return f"{CGNAT.network_address + tenant_id + 1}/32"


@functools.lru_cache(maxsize=65536)
def _interface_ok(text: str) -> bool:
    # Cached: every pass re-validates thousands of the same strings.
    ipaddress.ip_interface(text)
    return True


@functools.lru_cache(maxsize=65536)
def _multicast_ok(text: str) -> bool:
    return ipaddress.ip_address(text).is_multicast


@functools.lru_cache(maxsize=65536)
def _cgnat_ok(text: str) -> bool:
    net = ipaddress.ip_network(text)
    return net.prefixlen == 32 and net.subnet_of(CGNAT)


def _check_name(name: str, what: str) -> None:
    if not NAME_RE.match(name) or name in {".", ".."}:
        raise StateError(f"invalid {what} name {name!r} (max {IFNAMSIZ} chars)")


def _vxlan(raw: dict) -> Vxlan:
    vx = Vxlan(
        device=raw["device"], underlay=raw["underlay"], dstport=int(raw["dstport"]),
        address=raw["address"], group=raw.get("group"),
        peers=tuple(raw.get("peers") or ()), ttl=int(raw.get("ttl", 5)),
    )
    _check_name(vx.device, "vxlan")
    _interface_ok(vx.address)
    if not 0 < vx.dstport < 65536:
        raise StateError(f"bad dstport {vx.dstport}")
    if bool(vx.group) == bool(vx.peers):
        raise StateError(f"{vx.device}: exactly one of group or peers is required")
    if vx.group and not _multicast_ok(vx.group):
        raise StateError(f"{vx.device}: group {vx.group} is not multicast")
    for peer in vx.peers:
        _interface_ok(peer)
    return vx


def _tenant(raw: dict) -> Tenant:
    tenant = Tenant(
        id=int(raw["id"]), vrf=raw["vrf"]["name"], table=int(raw["vrf"]["table"]),
        vni=int(raw["vni"]), cgnat=raw["cgnat"],
        vxlans=tuple(_vxlan(v) for v in raw.get("vxlans", ())),
        uids=tuple(int(u) for u in raw.get("uids", ())),
    )
    _check_name(tenant.vrf, "vrf")
    if tenant.table in RESERVED_TABLES or not 0 < tenant.table < 2**32:
        raise StateError(f"tenant {tenant.id}: bad table {tenant.table}")
    if not 0 < tenant.vni < 2**24:
        raise StateError(f"tenant {tenant.id}: bad VNI {tenant.vni}")
    if not _cgnat_ok(tenant.cgnat):
        raise StateError(f"tenant {tenant.id}: CGNAT {tenant.cgnat} not a /32 in {CGNAT}")
    return tenant


def _tenant_or_error(raw: dict) -> Tenant | tuple[int, str]:
    """One bad tenant entry must not take the whole node's state down with it."""
    try:
        return _tenant(raw)
    except (KeyError, TypeError, ValueError) as exc:
        tid = raw.get("id") if isinstance(raw, dict) else None
        return (int(tid) if str(tid).isdigit() else -1), str(exc)


def _unique(values: list, what: str) -> None:
    seen = set()
    for value in values:
        if value in seen:
            raise StateError(f"duplicate {what}: {value}")
        seen.add(value)


def parse(data: dict) -> DesiredState:
    """Validate a decoded JSON document into a DesiredState."""
    try:
        data = expand(data)  # schema 2: VXLAN underlays are sent once, per node
        node = data["node"]
        parsed = [_tenant_or_error(t) for t in data.get("tenants", ())]
        state = DesiredState(
            generation=int(data["generation"]),
            node=Node(
                name=node["name"], address=node["address"],
                interfaces=tuple(Interface(i["name"], i["address"], i.get("gateway"))
                                 for i in node.get("interfaces", ())),
            ),
            tenants=tuple(t for t in parsed if isinstance(t, Tenant)),
            nftables=data.get("nftables", ""),
            invalid=tuple(t for t in parsed if not isinstance(t, Tenant)),
        )
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, SchemaError):  # a newer portal: keep running on the last state
            raise StateError(str(exc)) from exc
        if isinstance(exc, StateError):
            raise
        raise StateError(f"malformed desired state: {exc!r}") from exc
    tenants = state.tenants
    _unique([t.id for t in tenants], "tenant id")
    _unique([t.vrf for t in tenants] + [v.device for t in tenants for v in t.vxlans], "device")
    _unique([t.table for t in tenants], "table")
    _unique([t.cgnat for t in tenants], "CGNAT address")
    _unique([(t.vni, v.dstport) for t in tenants for v in t.vxlans], "VNI/port")
    _unique([u for t in tenants for u in t.uids], "member UID")
    return state


def loads(text: str) -> DesiredState:
    """Parse a JSON desired-state document, keeping the text so persisting it costs nothing."""
    return replace(parse(json.loads(text)), source=text)
