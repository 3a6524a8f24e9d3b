"""Pure planning: (actual kernel state, desired state) -> ordered operations. No I/O here."""

from __future__ import annotations

import functools
import hashlib
import ipaddress
from dataclasses import dataclass, field
from enum import StrEnum

from .state import DesiredState, Interface, Tenant, Vxlan

GROUP = 4242  # device group marking every link the agent owns
PROTO = 189  # route protocol marking every route the agent owns
ALIAS_PREFIX = "enclave:"
SYSCTLS = {
    "net/ipv4/tcp_l3mdev_accept": "1",  # sshd/slurmd in the default VRF serve every VRF
    "net/ipv4/udp_l3mdev_accept": "0",  # defect 1: never let a VRF socket reach VXLAN sockets
    "net/ipv4/ip_forward": "1",  # de-NATed replies are forwarded into the VRF device
}


class OpKind(StrEnum):
    """What an operation changes."""

    SYSCTL = "sysctl"
    RULES = "rules"
    NFTABLES = "nftables"
    DELETE = "delete"
    CREATE = "create"


@dataclass(frozen=True)
class Capabilities:
    """What the running kernel supports (probed once at start)."""

    vrf: bool
    vxlan: bool
    nftables: bool
    kernel: str = ""
    detail: str = ""


@dataclass(frozen=True)
class ActualLink:
    """An owned link as read from the kernel."""

    name: str
    kind: str
    tenant: int | None = None
    digest: str | None = None
    up: bool = False
    table: int | None = None


@dataclass
class KernelState:
    """Everything the agent owns, as read from the kernel (addrs/routes only on full reads)."""

    links: dict[str, ActualLink] = field(default_factory=dict)
    addrs: dict[str, frozenset[str]] | None = None
    routes: frozenset[tuple[int, str, str]] | None = None
    nft_digest: str | None = None
    sysctls: dict[str, str] = field(default_factory=dict)
    local_rule_pref0: tuple[bool, bool] = (False, False)  # (v4, v6) table local still at 0
    local_rule_moved: tuple[bool, bool] = (True, True)
    present: frozenset[str] | None = None  # underlay interfaces that exist (None = unchecked)


@dataclass(frozen=True)
class Op:
    """One step; lines are iproute2 batch lines, nft a whole transaction."""

    kind: OpKind
    tenant: int | None = None
    ip: tuple[str, ...] = ()
    ip6: tuple[str, ...] = ()
    bridge: tuple[str, ...] = ()
    nft: str = ""
    sysctl: tuple[tuple[str, str], ...] = ()
    finish: tuple[str, ...] = ()  # ip lines run after the bridge batch


@dataclass(frozen=True)
class LinkPlan:
    """The desired shape of one link plus the batch lines that build it."""

    name: str
    kind: str
    digest: str
    lines: tuple[str, ...]
    post: tuple[str, ...]  # lines that need every link of the tenant up (routes)
    fdb: tuple[str, ...]
    addrs: frozenset[str]


@dataclass
class Plan:
    """Ordered operations plus tenants that must not be built (fail closed)."""

    ops: list[Op] = field(default_factory=list)
    blocked: dict[int, str] = field(default_factory=dict)


def _digest(*parts: object) -> str:
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:12]


def alias(tenant: int, digest: str) -> str:
    """The ifalias that marks a completed link: set last, so half-built links lack it."""
    return f"{ALIAS_PREFIX}{tenant}:{digest}"


def parse_alias(text: str | None) -> tuple[int | None, str | None]:
    """Inverse of alias(); (None, None) for foreign or missing aliases."""
    if not text or not text.startswith(ALIAS_PREFIX):
        return None, None
    tenant, _, digest = text[len(ALIAS_PREFIX) :].partition(":")
    return (int(tenant), digest) if tenant.isdigit() and digest else (None, None)


def addr_key(cidr: str, scope: str = "global") -> str:
    """Address identity for drift checks; scope matters (defect 2 was a scope)."""
    return f"{ipaddress.ip_interface(cidr)} {scope}"


def _gateway(interfaces: tuple[Interface, ...]) -> Interface | None:
    return next((i for i in interfaces if i.gateway), None)


def vrf_plan(t: Tenant, interfaces: tuple[Interface, ...]) -> LinkPlan:
    """VRF with loopback addresses and a global-scope CGNAT /32 (defect 2: never scope host)."""
    cg = t.cgnat
    lines = [
        f"link add {t.vrf} group {GROUP} type vrf table {t.table}",
        f"link set {t.vrf} up",
        f"addr add 127.0.0.1/8 dev {t.vrf}",
        f"addr add ::1/128 dev {t.vrf}",
        f"addr add {cg} dev {t.vrf}",
    ]
    post = [f"route replace {cg} dev {t.vrf} proto {PROTO}"]
    gw = _gateway(interfaces)
    if gw:
        src = cg.split("/")[0]
        post.append(f"route replace default via {gw.gateway} dev {gw.name} src {src} proto {PROTO} table {t.table}")
    addrs = frozenset({addr_key("127.0.0.1/8", "host"), addr_key("::1/128", "host"), addr_key(cg)})
    return LinkPlan(t.vrf, "vrf", _digest(lines, post), tuple(lines), tuple(post), (), addrs)


def vxlan_plan(t: Tenant, vx: Vxlan, parent: str) -> LinkPlan:
    """One VXLAN on a real interface, same address as the interface, enslaved to the VRF."""
    where = f"group {vx.group}" if vx.group else ""
    add = (
        f"link add {vx.device} group {GROUP} type vxlan id {t.vni} dev {vx.underlay} "
        f"dstport {vx.dstport} ttl {vx.ttl} {where}"
    ).strip()
    lines = [
        add,
        f"link set {vx.device} master {t.vrf}",
        f"addr add {vx.address} dev {vx.device}",
        f"link set {vx.device} up",
    ]
    fdb = tuple(f"fdb append 00:00:00:00:00:00 dev {vx.device} dst {p}" for p in vx.peers)
    digest = _digest(lines, fdb, parent)
    addrs = frozenset({addr_key(vx.address)})
    return LinkPlan(vx.device, "vxlan", digest, tuple(lines), (), fdb, addrs)


def ipoib_plan(t: Tenant, parent: str, child: str, vrf_digest: str) -> LinkPlan:
    """The tenant's IPoIB child of an IB port for its partition key (full member), in its VRF."""
    key = int(t.pkey or "0", 16) | 0x8000
    lines = (
        f"link add link {parent} name {child} group {GROUP} type ipoib pkey 0x{key:04x}",
        f"link set {child} master {t.vrf}",
        f"link set {child} up",
    )
    return LinkPlan(child, "ipoib", _digest(lines, vrf_digest), lines, (), (), frozenset())


@functools.lru_cache(maxsize=65536)
def _tenant_links(t: Tenant, interfaces: tuple[Interface, ...]) -> tuple[LinkPlan, ...]:
    vrf = vrf_plan(t, interfaces)
    vxlans = (vxlan_plan(t, vx, vrf.digest) for vx in t.vxlans)
    return (vrf, *vxlans, *(ipoib_plan(t, parent, child, vrf.digest) for parent, child in t.ipoib))


def tenant_links(t: Tenant, interfaces: tuple[Interface, ...]) -> list[LinkPlan]:
    """VRF first, then its VXLANs (whose digests include the VRF's, so a VRF change rebuilds)."""
    # Memoised: incremental passes at thousands of tenants must not re-hash every link.
    return list(_tenant_links(t, interfaces))


def expected_routes(t: Tenant, interfaces: tuple[Interface, ...]) -> set[tuple[int, str, str]]:
    """Routes (table, dst, dev) the agent installs for a tenant; table 254 is main."""
    routes = {(254, t.cgnat.split("/")[0], t.vrf)}
    gw = _gateway(interfaces)
    if gw:
        routes.add((t.table, "default", gw.name))
    return routes


def _drifted(t: Tenant, plans: list[LinkPlan], actual: KernelState, ifs: tuple[Interface, ...]) -> bool:
    """Full reads only: addresses or routes differ from what the links should carry."""
    if actual.addrs is not None:
        for p in plans:
            if actual.addrs.get(p.name, frozenset()) != p.addrs:
                return True
    if actual.routes is not None and not expected_routes(t, ifs) <= actual.routes:
        return True
    return any(not actual.links[p.name].up for p in plans if p.name in actual.links)


def _delete_lines(links: list[ActualLink]) -> tuple[str, ...]:
    lines = [f"route flush table {a.table}" for a in links if a.kind == "vrf" and a.table]
    lines += [f"link del {a.name}" for a in links if a.kind != "vrf"]
    return tuple(lines + [f"link del {a.name}" for a in links if a.kind == "vrf"])


def _create(tid: int, plans: list[LinkPlan]) -> Op:
    lines = [line for p in plans for line in p.lines]
    lines += [line for p in plans for line in p.post]
    lines += [f'link set {p.name} alias "{alias(tid, p.digest)}"' for p in plans if not p.fdb]
    fdb = tuple(line for p in plans for line in p.fdb)
    # With static peers the alias is only written after the bridge batch succeeded.
    after = tuple(f'link set {p.name} alias "{alias(tid, p.digest)}"' for p in plans if p.fdb)
    return Op(OpKind.CREATE, tid, ip=tuple(lines), bridge=fdb, finish=after)


def tenant_ops(t: Tenant, ifs: tuple[Interface, ...], owned: list[ActualLink], actual: KernelState) -> list[Op]:
    """Delete/create ops that take one tenant from its actual links to the desired ones."""
    plans = tenant_links(t, ifs)
    have = {a.name: a for a in owned}
    vrf = have.get(t.vrf)
    if vrf is None or vrf.digest != plans[0].digest or _drifted(t, plans, actual, ifs):
        ops = [Op(OpKind.DELETE, t.id, ip=_delete_lines(owned))] if owned else []
        return ops + [_create(t.id, plans)]
    stale = [a for a in owned if a.name not in {p.name: 1 for p in plans}]
    todo = []
    for p in plans[1:]:
        cur = have.get(p.name)
        if cur is None or cur.digest != p.digest:
            stale += [cur] if cur else []
            todo.append(p)
    ops = [Op(OpKind.DELETE, t.id, ip=_delete_lines(stale))] if stale else []
    return ops + ([_create(t.id, todo)] if todo else [])


def _owner(link: ActualLink, by_device: dict[str, int]) -> int | None:
    return link.tenant if link.tenant is not None else by_device.get(link.name)


def node_ops(actual: KernelState, desired_nft: tuple[str, str], caps: Capabilities) -> list[Op]:
    """Sysctls, RPDB order for VRFs and the nftables transaction: node-wide, before links."""
    ops = []
    wrong = tuple((k, v) for k, v in SYSCTLS.items() if actual.sysctls.get(k) != v)
    if wrong:
        ops.append(Op(OpKind.SYSCTL, sysctl=wrong))
    if caps.vrf:
        v4 = _rule_lines(actual.local_rule_moved[0], actual.local_rule_pref0[0])
        v6 = _rule_lines(actual.local_rule_moved[1], actual.local_rule_pref0[1])
        if v4 or v6:
            ops.append(Op(OpKind.RULES, ip=v4, ip6=v6))
    digest, text = desired_nft
    if caps.nftables and actual.nft_digest != digest:
        ops.append(Op(OpKind.NFTABLES, nft=text))
    return ops


def _rule_lines(moved: bool, at_zero: bool) -> tuple[str, ...]:
    """Move table local below the l3mdev rule (1000), as the kernel VRF docs recommend."""
    lines = [] if moved else ["rule add pref 32765 table local"]
    return tuple(lines + (["rule del pref 0 table local"] if at_zero else []))


def blocked_reason(t: Tenant, desired: DesiredState, actual: KernelState, caps: Capabilities) -> str | None:
    """Why a tenant must not be built at all (fail closed), or None."""
    if not caps.vrf:
        return "kernel lacks VRF support (CONFIG_NET_VRF): refusing to build an unisolated tenant network"
    names = {i.name for i in desired.node.interfaces}
    for vx in t.vxlans:
        if vx.underlay not in names:
            return f"{vx.device}: underlay {vx.underlay} is not an interface of this node"
        if actual.present is not None and vx.underlay not in actual.present:
            return f"{vx.device}: underlay {vx.underlay} does not exist on this node"
    for parent, child in t.ipoib:
        if actual.present is not None and parent not in actual.present:
            return f"{child}: InfiniBand interface {parent} does not exist on this node"
    return None


def plan(actual: KernelState, desired: DesiredState, caps: Capabilities, nft: tuple[str, str]) -> Plan:
    """The pure diff: node ops, then all deletes, then all creates; blocked tenants listed."""
    result = Plan(ops=node_ops(actual, nft, caps))
    by_device = {n: t.id for t in desired.tenants for n in [t.vrf, *(v.device for v in t.vxlans)]}
    owned: dict[int | None, list[ActualLink]] = {}
    for link in actual.links.values():
        owned.setdefault(_owner(link, by_device), []).append(link)
    for t in desired.tenants:
        reason = blocked_reason(t, desired, actual, caps)
        if reason:
            result.blocked[t.id] = reason
    wanted = {t.id for t in desired.tenants} - set(result.blocked)
    deletes: list[Op] = []
    creates: list[Op] = []
    for tid, links in sorted(owned.items(), key=lambda kv: (kv[0] is None, kv[0] or 0)):
        if tid not in wanted:
            deletes.append(Op(OpKind.DELETE, tid, ip=_delete_lines(links)))
    for t in desired.tenants:
        if t.id in wanted:
            for op in tenant_ops(t, desired.node.interfaces, owned.get(t.id, []), actual):
                (deletes if op.kind == OpKind.DELETE else creates).append(op)
    result.ops += deletes + creates
    return result


def projected(
    actual: KernelState, desired: DesiredState, caps: Capabilities, nft_digest: str, failed: set[int]
) -> KernelState:
    """The kernel state after a successful pass (cache for incremental passes)."""
    links = {}
    for t in desired.tenants:
        if blocked_reason(t, desired, actual, caps) or t.id in failed:
            continue
        for p in tenant_links(t, desired.node.interfaces):
            table = t.table if p.kind == "vrf" else None
            links[p.name] = ActualLink(p.name, p.kind, t.id, p.digest, True, table)
    return KernelState(
        links=links,
        nft_digest=nft_digest,
        sysctls=dict(SYSCTLS),
        local_rule_pref0=(False, False),
        local_rule_moved=(True, True) if caps.vrf else actual.local_rule_moved,
    )
