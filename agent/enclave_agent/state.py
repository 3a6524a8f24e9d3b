"""Desired-state document pulled from the portal: schema as dataclasses, parsing and validation."""

from __future__ import annotations

import functools
import ipaddress
import json
from dataclasses import asdict, dataclass, field, replace
from enum import StrEnum

from . import fabric_wire, grammar
from .wire import CGNAT, IFNAMSIZ, TABLE_BASE, SchemaError, expand, ipoib_name, vxlan_name  # noqa: F401

RESERVED_TABLES = {0, 253, 254, 255}


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
    pkey: str | None = None  # the tenant's InfiniBand partition on this node's fabric ("0x0012")
    ipoib: tuple[tuple[str, str], ...] = ()  # (parent, child): one IPoIB child per node IB port, in the VRF


@dataclass(frozen=True)
class Node:
    """The node this document is for."""

    name: str
    address: str  # the node's primary underlay address; SNAT target
    interfaces: tuple[Interface, ...] = ()
    ipoib_parents: tuple[str, ...] = ()  # IPoIB interfaces (ib0) that get a child per tenant partition


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
def _multicast(text: str) -> bool:
    # Cached, like the grammar: every new document re-validates thousands of the same strings.
    return ipaddress.ip_address(text).is_multicast


@functools.lru_cache(maxsize=65536)
def _cgnat_ok(text: str) -> bool:
    net = ipaddress.ip_network(text)
    return isinstance(net, ipaddress.IPv4Network) and net.prefixlen == 32 and net.subnet_of(CGNAT)


def _vxlan(raw: dict) -> Vxlan:
    peers = raw.get("peers") or ()
    if not isinstance(peers, list | tuple):
        raise grammar.GrammarError("peers: expected a list")
    group = raw.get("group")
    vx = Vxlan(
        device=grammar.ifname(raw["device"], "vxlan device"),
        underlay=grammar.ifname(raw["underlay"], "underlay"),
        dstport=grammar.integer(raw["dstport"], 1, 65535, "dstport"),
        address=grammar.interface_address(raw["address"], "vxlan address"),
        group=None if group is None else grammar.address(group, "group"),
        peers=tuple(grammar.address(p, "peer") for p in peers),
        ttl=grammar.integer(raw.get("ttl", 5), 1, 255, "ttl"),
    )
    if bool(vx.group) == bool(vx.peers):
        raise StateError(f"{vx.device}: exactly one of group or peers is required")
    if vx.group and not _multicast(vx.group):
        raise StateError(f"{vx.device}: group {vx.group} is not multicast")
    return vx


def _pkey(raw: dict, parents: tuple[str, ...]) -> dict:
    """The tenant's partition key (grammar-checked) and its IPoIB children, when it has one here."""
    if raw.get("pkey") is None:
        return {}
    try:
        number = fabric_wire.pkey(raw["pkey"])
    except fabric_wire.FabricError as exc:
        raise grammar.GrammarError(str(exc)) from None
    return {"pkey": fabric_wire.pkey_text(number), "ipoib": tuple((p, ipoib_name(p, number)) for p in parents)}


def _tenant(raw: dict, parents: tuple[str, ...] = ()) -> Tenant:
    vxlans, uids = raw.get("vxlans", ()), raw.get("uids", ())
    if not isinstance(vxlans, list | tuple) or not isinstance(uids, list | tuple):
        raise grammar.GrammarError("vxlans and uids must be lists")
    tenant = Tenant(
        id=grammar.integer(raw["id"], 0, 2**32 - 1, "tenant id"),
        vrf=grammar.ifname(raw["vrf"]["name"], "vrf"),
        table=grammar.integer(raw["vrf"]["table"], 0, 2**32 - 1, "table"),
        vni=grammar.integer(raw["vni"], 0, 2**32 - 1, "vni"),
        cgnat=grammar.network(raw["cgnat"], "cgnat"),
        vxlans=tuple(_vxlan(v) for v in vxlans),
        uids=tuple(grammar.uid(u) for u in uids),
        **_pkey(raw, parents),
    )
    if tenant.table in RESERVED_TABLES or not 0 < tenant.table < 2**32:
        raise StateError(f"tenant {tenant.id}: bad table {tenant.table}")
    if not 0 < tenant.vni < 2**24:
        raise StateError(f"tenant {tenant.id}: bad VNI {tenant.vni}")
    if not _cgnat_ok(tenant.cgnat):
        raise StateError(f"tenant {tenant.id}: CGNAT {tenant.cgnat} not a /32 in {CGNAT}")
    return tenant


def _tenant_or_error(raw: dict, parents: tuple[str, ...] = ()) -> Tenant | tuple[int, str]:
    """One bad tenant entry must not take the whole node's state down with it (unless unsafe)."""
    try:
        return _tenant(raw, parents)
    except grammar.GrammarError:
        raise  # a value that fails the grammar means the whole document is untrustworthy
    except (KeyError, TypeError, ValueError) as exc:
        tid = raw.get("id") if isinstance(raw, dict) else None
        return (tid if isinstance(tid, int) and not isinstance(tid, bool) else -1), str(exc)


def _unique(values: list, what: str) -> None:
    seen = set()
    for value in values:
        if value in seen:
            raise StateError(f"duplicate {what}: {value}")
        seen.add(value)


def _node(raw: dict) -> Node:
    address = raw["address"]
    interfaces = grammar.interfaces(raw.get("interfaces", ()))
    parents = raw.get("ipoib_parents") or ()
    if not isinstance(parents, list | tuple):
        raise grammar.GrammarError("ipoib_parents: expected a list")
    return Node(
        name=grammar.node_name(raw["name"]),
        address=address if address == "" else grammar.address(address, "node address"),
        interfaces=tuple(Interface(**i) for i in interfaces),
        ipoib_parents=tuple(grammar.ifname(p, "ipoib parent") for p in parents),
    )


def parse(data: dict) -> DesiredState:
    """Validate a decoded JSON document into a DesiredState; refuse it whole if it fails the grammar."""
    try:
        if not isinstance(data, dict):
            raise StateError("malformed desired state: not an object")
        data = expand(data)  # schema 2: VXLAN underlays are sent once, per node
        tenants = data.get("tenants", ())
        if not isinstance(tenants, list | tuple):
            raise grammar.GrammarError("tenants: expected a list")
        node = _node(data["node"])
        parsed = [_tenant_or_error(t, node.ipoib_parents) for t in tenants]
        state = DesiredState(
            generation=grammar.integer(data["generation"], 0, 2**63 - 1, "generation"),
            node=node,
            tenants=tuple(t for t in parsed if isinstance(t, Tenant)),
            nftables=grammar.portal_ruleset(data.get("nftables", "")),
            invalid=tuple(t for t in parsed if not isinstance(t, Tenant)),
        )
    except grammar.GrammarError as exc:
        raise StateError(f"desired state refused: {exc}") from exc
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, SchemaError):  # a newer portal: keep running on the last state
            raise StateError(str(exc)) from exc
        if isinstance(exc, StateError):
            raise
        raise StateError(f"malformed desired state: {exc!r}") from exc
    tenants = state.tenants
    _unique([t.id for t in tenants], "tenant id")
    _unique(
        [t.vrf for t in tenants]
        + [v.device for t in tenants for v in t.vxlans]
        + [c for t in tenants for _, c in t.ipoib],
        "device",
    )
    _unique([t.table for t in tenants], "table")
    _unique([t.cgnat for t in tenants], "CGNAT address")
    _unique([(t.vni, v.dstport) for t in tenants for v in t.vxlans], "VNI/port")
    _unique([u for t in tenants for u in t.uids], "member UID")
    return state


def loads(text: str) -> DesiredState:
    """Parse a JSON desired-state document, keeping the text so persisting it costs nothing."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise StateError(f"malformed desired state: not JSON ({exc})") from None
    return replace(parse(data), source=text)
