"""Frozen oracle: the nft compiler as it was before its speed-up (main at 6b72e79), up to compile_ruleset.

Kept only so that tests can show the optimized compiler writes byte-identical rulesets; never used by
the product. Its memos on IR objects use other keys than the compiler's, so neither feeds the other.
"""

from __future__ import annotations

import gc
import ipaddress
import socket
from collections.abc import Iterable
from contextlib import contextmanager
from dataclasses import dataclass

from netpolicy.compiler.model import (
    Action,
    Direction,
    Group,
    Policy,
    PortRange,
    Protocol,
    Rule,
    Scope,
    Service,
    Site,
    Tenant,
)

TABLE = "inet enclave"
INGRESS_MAP = "ingress_if"
EGRESS_MAP = "egress_if"
# (direction, base chain, hook, interface selector, dispatch map)
HOOKS = (("in", "input", "input", "iifname", INGRESS_MAP), ("out", "output", "output", "oifname", EGRESS_MAP))
FAMILIES = ((4, "ip", "ipv4_addr"), (6, "ip6", "ipv6_addr"))
VERDICT = {Action.ALLOW: "accept", Action.DROP: "drop", Action.REJECT: "reject with icmpx admin-prohibited"}


def group_set(group: Group, family: int) -> str:
    """Named set of a group: tenant groups share one set per group name, keyed by interface."""
    if group.scope is Scope.TENANT:
        return f"g__{group.name}__{family}"
    return f"s__{group.name}__{family}"


def service_set(service: Service) -> str:
    """Named set holding one service's destination ports."""
    return f"svc__{service.name}"


def tenant_chain(tenant: str, direction: str) -> str:
    """Chain holding one tenant's rules for traffic into ('in') or out of ('out') it."""
    return f"t__{tenant}__{direction}"


def policy_chain(policy: Policy, direction: str) -> str:
    """Shared chain holding one site policy's rules, jumped to from every tenant chain."""
    return f"p__{policy.id}__{direction}"


def selector(direction: str) -> str:
    """The interface the tenant chain was dispatched on, for keyed group lookups."""
    return "iifname" if direction == "in" else "oifname"


def _memo(obj, key: str, compute):
    """Derived text of a frozen IR object, computed once per object (IR objects are shared)."""
    cache = obj.__dict__
    if key not in cache:
        cache[key] = compute()  # frozen dataclasses still have a writable __dict__
    return cache[key]


def family_nets(group: Group, family: int) -> list:
    """The group's networks of one family, merged so interval sets never overlap."""
    return _families(group)[family][0]


def family_texts(group: Group, family: int) -> tuple[str, ...]:
    """family_nets as text."""
    return _families(group)[family][1]


def _families(group: Group) -> dict:
    """{family: (merged networks, their text)}, computed once per group object."""
    try:
        return group.__dict__["_old_families"]
    except KeyError:
        pass
    by_family: dict[int, list] = {4: [], 6: []}
    for net in group.cidrs:
        by_family[net.version].append(net)
    found = {}
    for family, nets in by_family.items():
        if len(nets) > 1:  # collapsing is slow even for one network, and most hold one
            nets = list(ipaddress.collapse_addresses(nets))
        found[family] = (nets, tuple(map(net_text, nets)))
    group.__dict__["_old_families"] = found
    return found


_MAPPED = bytes(10)  # the first bytes of IPv4-mapped and -compatible IPv6 addresses


def net_text(net) -> str:
    """str(net), with the C library formatting the address (ipaddress's IPv6 str is slow)."""
    packed = net.network_address.packed
    if net.version == 4:
        return f"{socket.inet_ntoa(packed)}/{net.prefixlen}"
    if packed.startswith(_MAPPED):  # inet_ntop writes these as ::ffff:a.b.c.d, Python does not
        return str(net)
    return f"{socket.inet_ntop(socket.AF_INET6, packed)}/{net.prefixlen}"


def merged_ports(ports: Iterable[PortRange]) -> list[PortRange]:
    """Merge overlapping or adjacent port ranges (nft rejects overlapping intervals)."""
    out: list[PortRange] = []
    for rng in sorted(ports):
        if out and rng.start <= out[-1].end + 1:
            out[-1] = PortRange(out[-1].start, max(out[-1].end, rng.end))
        else:
            out.append(rng)
    return out


# ---------------------------------------------------------------- declarations

# name -> (key type, elements); elements keep insertion order for deterministic output
SetDecls = dict[str, tuple[str, list[str]]]


def set_decl(name: str, key_type: str, elements: list[str]) -> str:
    """Declaration of one interval set, inside a table block."""
    body = f"type {key_type}; flags interval;"
    if elements:
        body += f" elements = {{ {', '.join(elements)} }};"
    return f"\tset {name} {{ {body} }}"


def _add(decls: SetDecls, name: str, key_type: str, elements: list[str]) -> None:
    decls.setdefault(name, (key_type, []))[1].extend(elements)


def site_group_decls(group: Group, decls: SetDecls) -> None:
    """Plain address sets of a site group, one per non-empty family."""
    for family, _, key_type in FAMILIES:
        nets = family_nets(group, family)
        if nets:
            _add(decls, group_set(group, family), key_type, list(family_texts(group, family)))


def tenant_groups(tenant: Tenant) -> list[Group]:
    """Every tenant-scoped group the tenant's rules use, sorted by name."""
    groups = {
        g.name: g
        for p in tenant.policies
        for r in p.rules
        for g in r.sources + r.destinations
        if g.scope is Scope.TENANT
    }
    return [groups[k] for k in sorted(groups)]


def tenant_set_decls(tenant: Tenant, decls: SetDecls | None = None) -> SetDecls:
    """The tenant's elements ("<interface>" . <network>) in the shared group sets."""
    return _tenant_elements(tenant.interface, tenant_groups(tenant), decls)


def _tenant_elements(interface: str, groups: list[Group], decls: SetDecls | None = None) -> SetDecls:
    decls = {} if decls is None else decls
    key = f'"{interface}" . '
    for group in groups:
        families = _families(group)
        for family, _, key_type in FAMILIES:
            texts = families[family][1]
            if texts:
                _add(decls, group_set(group, family), f"ifname . {key_type}", [key + text for text in texts])
    return decls


def service_set_decl(service: Service, decls: SetDecls) -> None:
    """Port set of a service, if it has ports."""
    if service.ports:
        _add(decls, service_set(service), "inet_service", [str(p) for p in merged_ports(service.ports)])


# ---------------------------------------------------------------- rule statements


def _addr_options(groups: tuple[Group, ...], family: int, side: str, direction: str, expand: bool) -> list[str] | None:
    """Match fragments for one side and family; None means ANY, [] means no match."""
    if not groups:
        return None
    proto = "ip" if family == 4 else "ip6"
    out = []
    for group in groups:
        nets = family_nets(group, family)
        if expand:
            out += [f"{proto} {side} {n}" for n in nets]
        elif nets and group.scope is Scope.TENANT:
            out.append(f"{selector(direction)} . {proto} {side} @{group_set(group, family)}")
        elif nets:
            out.append(f"{proto} {side} @{group_set(group, family)}")
    return out


def address_matches(rule: Rule, direction: str, expand: bool = False) -> list[str]:
    """Address parts of the statements for a rule (cartesian over groups and families)."""
    if not rule.sources and not rule.destinations:
        return [""]
    parts = []
    for family, _, _ in FAMILIES:
        srcs = _addr_options(rule.sources, family, "saddr", direction, expand)
        dsts = _addr_options(rule.destinations, family, "daddr", direction, expand)
        for src in [None] if srcs is None else srcs:
            for dst in [None] if dsts is None else dsts:
                parts.append(" ".join(x for x in (src, dst) if x) + " ")
    return parts


def service_matches(service: Service, expand: bool = False) -> list[str]:
    """Protocol and port parts of the statements for one service."""
    if service.protocol is Protocol.ANY:
        return [""]
    if service.protocol is Protocol.ICMP:
        # Two statements rather than an anonymous set: every set costs nft load time.
        return ["meta l4proto icmp ", "meta l4proto ipv6-icmp "]
    text = f"meta l4proto {service.protocol.value} "
    if not service.ports:
        return [text]
    if expand:
        return [f"{text}th dport {p} " for p in merged_ports(service.ports)]
    return [f"{text}th dport @{service_set(service)} "]


_ENFORCED = {"in": {Direction.IN, Direction.IN_OUT}, "out": {Direction.OUT, Direction.IN_OUT}}


def applies(rule: Rule, direction: str) -> bool:
    """Whether a rule is enforced at this side of the tenant interface."""
    return rule.enabled and rule.direction in _ENFORCED[direction]


def _group_shape(group: Group) -> tuple:
    """What a group contributes to a statement's text: its set names, not its addresses."""
    try:
        return group.__dict__["_old_shape"]
    except KeyError:
        families = _families(group)
        shape = (group.scope is Scope.TENANT, group.name, bool(families[4][0]), bool(families[6][0]))
        group.__dict__["_old_shape"] = shape
        return shape


def _service_shape(service: Service) -> tuple:
    try:
        return service.__dict__["_old_shape"]
    except KeyError:
        shape = service.__dict__["_old_shape"] = (service.protocol, service.name, bool(service.ports))
        return shape


# rule shape -> {direction: statement texts before the verdict}; keys are plain values, so
# tenants whose rules look alike (the default policy) share the work. Bounded.
_MATCHES: dict[tuple, dict[str, tuple[str, ...]]] = {}


def _rule_matches(rule: Rule) -> dict[str, tuple[str, ...]]:
    """Match parts of a rule's statements per direction, computed once per shape."""
    shape = (
        tuple(map(_group_shape, rule.sources)),
        tuple(map(_group_shape, rule.destinations)),
        tuple(map(_service_shape, rule.services)),
    )
    found = _MATCHES.get(shape)
    if found is None:
        services = [m for s in rule.services for m in service_matches(s)] or [""]
        found = {
            d: tuple((addr + svc).replace("  ", " ").lstrip() for addr in address_matches(rule, d) for svc in services)
            for d in _ENFORCED
        }
        if len(_MATCHES) >= 4096:
            _MATCHES.clear()
        _MATCHES[shape] = found
    return found


def _tail(policy: Policy, rule: Rule) -> str:
    """Log, verdict and the comment naming the rule."""
    tag = f"{policy.id}/{rule.id}"
    if rule.logged:
        return f'log prefix "enclave {tag} " {VERDICT[rule.action]} comment "{tag}"'
    return f'{VERDICT[rule.action]} comment "{tag}"'


def rule_statements(policy: Policy, rule: Rule, direction: str, prefix: str = "", expand: bool = False) -> list[str]:
    """The nft statements of one rule; several when it spans families, groups or services."""
    tail = _tail(policy, rule)
    if not prefix and not expand:
        return [match + tail for match in _rule_matches(rule)[direction]]
    services = [m for s in rule.services for m in service_matches(s, expand)] or [""]
    return [
        f"{prefix}{addr}{svc}{tail}".replace("  ", " ").lstrip()
        for addr in address_matches(rule, direction, expand)
        for svc in services
    ]


def _order(policy: Policy) -> tuple:
    cache = policy.__dict__
    order = cache.get("_old_order")
    if order is None:
        order = cache["_old_order"] = policy.order
    return order


def _jumps(policy: Policy, direction: str) -> bool:
    """Whether tenant chains jump to this site policy's chain (some rule of it applies)."""
    return _memo(policy, f"_old_jump{direction}", lambda: any(applies(r, direction) for r in policy.rules))


def tenant_chain_body(site: Site, tenant: Tenant, direction: str) -> list[str]:
    """Statements of one tenant chain: site policies by jump, own policies inline, in order."""
    lines: list[str] = []
    enforced = _ENFORCED[direction]
    for policy in sorted(site.policies + tenant.policies, key=_order):
        if policy.scope is Scope.SITE:
            if _jumps(policy, direction):
                lines.append(f"jump {policy_chain(policy, direction)}")
            continue
        for rule in policy.rules:
            if rule.enabled and rule.direction in enforced:
                tail = _tail(policy, rule)
                lines += [match + tail for match in _rule_matches(rule)[direction]]
    return lines


def policy_chain_body(policy: Policy, direction: str) -> list[str]:
    """Statements of one shared site-policy chain."""
    return [s for r in policy.rules if applies(r, direction) for s in rule_statements(policy, r, direction)]


# ---------------------------------------------------------------- full ruleset


def _chain_block(name: str, lines: list[str], header: str = "") -> list[str]:
    out = [f"\tchain {name} {{"]
    if header:
        out.append(f"\t\t{header}")
    out += [f"\t\t{line}" for line in lines]
    out.append("\t}")
    return out


def _base_chains(maps: bool = True) -> list[str]:
    """Hooked chains: stateful fast path, then one verdict-map lookup per packet."""
    out = []
    for _, name, hook, selector, vmap in HOOKS:
        lines = ["ct state established,related accept"]
        if maps:
            lines.append(f"{selector} vmap @{vmap}")
        out += _chain_block(name, lines, f"type filter hook {hook} priority filter; policy accept;")
    return out


def _dispatch_maps(tenants) -> list[str]:
    out = []
    for direction, _, _, _, vmap in HOOKS:
        elems = [
            f'"{t.interface}" : jump {tenant_chain(t.name, direction)}'
            for t in sorted(tenants, key=lambda t: t.interface)
        ]
        body = "type ifname : verdict;"
        if elems:
            body += f" elements = {{ {', '.join(elems)} }};"
        out.append(f"\tmap {vmap} {{ {body} }}")
    return out


def _preamble() -> list[str]:
    # Create-then-delete makes the load idempotent and touches no other table.
    return [f"table {TABLE} {{", "}", f"delete table {TABLE}", f"table {TABLE} {{"]


# A compiled set: (name, key type, elements)
SetPart = tuple[str, str, tuple[str, ...]]


@dataclass(frozen=True)
class TenantPart:
    """One tenant's share of a ruleset: its elements of the shared sets and its two chains."""

    name: str
    interface: str
    sets: tuple[SetPart, ...]
    chains: str

    def to_dict(self) -> dict:
        """JSON-ready form, for storing compiled parts."""
        return {
            "name": self.name,
            "interface": self.interface,
            "chains": self.chains,
            "sets": [[n, k, list(e)] for n, k, e in self.sets],
        }

    @classmethod
    def from_dict(cls, data: dict) -> TenantPart:
        return cls(data["name"], data["interface"], tuple((n, k, tuple(e)) for n, k, e in data["sets"]), data["chains"])


@dataclass(frozen=True)
class SitePart:
    """The tenant-independent share: site group and service sets, the site policies' chains."""

    sets: tuple[SetPart, ...]
    chains: str


def _set_parts(decls: SetDecls) -> tuple[SetPart, ...]:
    return tuple((name, key_type, tuple(elements)) for name, (key_type, elements) in decls.items())


def tenant_part(site: Site, tenant: Tenant) -> TenantPart:
    """Compile one tenant against the site's policies (its chains jump to theirs)."""
    # The hot loop of a full compile (10,000 tenants): one pass over the rules builds both
    # chains (as tenant_chain_body would) and finds the groups for the set elements.
    chains = {direction: [f"\tchain {tenant_chain(tenant.name, direction)} {{"] for direction in _ENFORCED}
    groups: dict[str, Group] = {}
    for policy in sorted(site.policies + tenant.policies, key=_order):
        if policy.scope is Scope.SITE:
            for direction, lines in chains.items():
                if _jumps(policy, direction):
                    lines.append(f"\t\tjump {policy_chain(policy, direction)}")
            continue
        for rule in policy.rules:
            for group in rule.sources + rule.destinations:
                if group.scope is Scope.TENANT:
                    groups[group.name] = group
            if not rule.enabled:
                continue
            tail = _tail(policy, rule)
            for direction, matches in _rule_matches(rule).items():
                if rule.direction in _ENFORCED[direction]:
                    chains[direction] += ["\t\t" + match + tail for match in matches]
    text = "\n".join("\n".join(lines) + "\n\t}" for lines in chains.values())
    decls = _tenant_elements(tenant.interface, [groups[name] for name in sorted(groups)])
    return TenantPart(tenant.name, tenant.interface, _set_parts(decls), text)


def site_part(site: Site) -> SitePart:
    """Compile what every tenant of the site shares."""
    decls: SetDecls = {}
    for group in site.groups:
        site_group_decls(group, decls)
    for service in site.services:
        service_set_decl(service, decls)
    lines: list[str] = []
    for policy in site.policies:
        for direction, *_ in HOOKS:
            lines += _chain_block(policy_chain(policy, direction), policy_chain_body(policy, direction))
    return SitePart(_set_parts(decls), "\n".join(lines))


def assemble(site: SitePart, tenants: Iterable[TenantPart]) -> str:
    """The complete ruleset from compiled parts: only string joins, no compiling."""
    parts = sorted(tenants, key=lambda t: t.name)
    decls: SetDecls = {name: (key_type, list(elements)) for name, key_type, elements in site.sets}
    for part in parts:
        for name, key_type, elements in part.sets:
            _add(decls, name, key_type, elements)
    lines = _preamble()
    lines += [set_decl(name, *decl) for name, decl in decls.items()]
    lines += _dispatch_maps(parts)
    lines += [text for text in [site.chains, *(p.chains for p in parts)] if text]
    lines += _base_chains()
    lines.append("}")
    return "\n".join(lines) + "\n"


@contextmanager
def _collector_paused():
    """Pause the cycle collector: compiling creates no cycles, but at 10,000 tenants the IR holds
    millions of objects, and the full collections that its allocations trigger cost more than
    the compile itself."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def compile_ruleset(site: Site) -> str:
    """The complete, deterministic ruleset for one node, replacing only our table."""
    with _collector_paused():
        return assemble(site_part(site), [tenant_part(site, t) for t in site.tenants])
