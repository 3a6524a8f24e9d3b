"""Statement text of the nft compiler: names, addresses, ports, and each rule's statements.

What a rule compiles to depends on the names and families of its groups and services, not on
their addresses, so statements are computed once per shape of rule and shared by every tenant
whose rules look alike (the default policy).
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Iterable
from ipaddress import IPv4Network
from operator import attrgetter
from typing import Any

from .model import Action, Direction, Group, Policy, PortRange, Protocol, Rule, Scope, Service, Site, Tenant

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


def memo(obj: object, key: str, compute: Callable[[], Any]) -> Any:
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
        return group.__dict__["_nft_families"]
    except KeyError:
        pass
    v4, v6 = split_families(group)
    found = {4: merged(v4), 6: merged(v6)}
    group.__dict__["_nft_families"] = found
    return found


def split_families(group: Group) -> tuple[list, list]:
    """The group's IPv4 and IPv6 networks."""
    v4: list = []
    v6: list = []
    for net in group.cidrs:
        (v4 if isinstance(net, IPv4Network) else v6).append(net)  # .version is a Python call
    return v4, v6


def merged(nets: list) -> tuple[list, tuple[str, ...]]:
    if len(nets) > 1:  # collapsing is slow even for one network, and most hold one
        nets = list(ipaddress.collapse_addresses(nets))
    return nets, tuple([net_text(net) for net in nets])


_ntoa, _ntop, _AF_INET6 = socket.inet_ntoa, socket.inet_ntop, socket.AF_INET6


def net_text(net: Any) -> str:  # an ipaddress network: its private fields are read
    """str(net), with the C library formatting the address (ipaddress's str is slow)."""
    # The address's integer and the prefix length are read directly: ipaddress's public
    # properties (packed, prefixlen) are Python calls, three per network in the hot loop.
    # tests/netpolicy/test_nft_identical.py holds this to str() for both families.
    ip = net.network_address._ip
    if isinstance(net, IPv4Network):
        return f"{_ntoa(ip.to_bytes(4))}/{net._prefixlen}"  # type: ignore[attr-defined]  # private: see above
    if ip >> 48 == 0:  # the first 10 bytes are zero: inet_ntop writes ::ffff:a.b.c.d, Python not
        return str(net)
    return f"{_ntop(_AF_INET6, ip.to_bytes(16))}/{net._prefixlen}"


def merged_ports(ports: Iterable[PortRange]) -> list[PortRange]:
    """Merge overlapping or adjacent port ranges (nft rejects overlapping intervals)."""
    out: list[PortRange] = []
    for rng in sorted(ports):
        if out and rng.start <= out[-1].end + 1:
            out[-1] = PortRange(out[-1].start, max(out[-1].end, rng.end))
        else:
            out.append(rng)
    return out


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


def group_shape(group: Group) -> tuple:
    """What a group contributes to a statement's text: its set names, not its addresses."""
    try:
        return group.__dict__["_nft_shape"]
    except KeyError:
        cidrs = group.cidrs  # sorted by family, IPv4 first
        return remember_shape(group, bool(cidrs) and cidrs[0].version == 4, bool(cidrs) and cidrs[-1].version == 6)


def remember_shape(group: Group, has_v4: bool, has_v6: bool) -> tuple:
    """Memoize a group's shape, for policy_lines to read in C."""
    shape = group.__dict__["_nft_shape"] = (group.scope is Scope.TENANT, group.name, has_v4, has_v6)
    return shape


def service_shape(service: Service) -> tuple:
    try:
        return service.__dict__["_nft_shape"]
    except KeyError:
        shape = service.__dict__["_nft_shape"] = (service.protocol, service.name, bool(service.ports))
        return shape


# rule shape -> (statements in, statements out), each a line's start ("\t\t" and the matches,
# before the verdict), none where the rule does not apply; keys are plain values, so tenants
# whose rules look alike (the default policy) share the work. Bounded.
_MATCHES: dict[tuple, tuple[tuple[str, ...], tuple[str, ...]]] = {}


_SHAPE = attrgetter("_nft_shape")  # the memo of group_shape and service_shape


def _rule_matches(rule: Rule) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Starts of a rule's statement lines for ("in", "out"), computed once per shape."""
    key = (
        *map(group_shape, rule.sources),
        None,
        *map(group_shape, rule.destinations),
        None,
        *map(service_shape, rule.services),
        rule.direction,
    )
    found = _MATCHES.get(key)
    if found is None:
        services = [m for s in rule.services for m in service_matches(s)] or [""]
        matches_in, matches_out = (
            tuple(
                "\t\t" + (addr + svc).replace("  ", " ").lstrip()
                for addr in address_matches(rule, d)
                for svc in services
            )
            if rule.direction in _ENFORCED[d]
            else ()
            for d in ("in", "out")
        )
        found = (matches_in, matches_out)
        if len(_MATCHES) >= 4096:
            _MATCHES.clear()
        _MATCHES[key] = found
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
        return [match[2:] + tail for match in _rule_matches(rule)[_SIDE[direction]]]
    services = [m for s in rule.services for m in service_matches(s, expand)] or [""]
    return [
        f"{prefix}{addr}{svc}{tail}".replace("  ", " ").lstrip()
        for addr in address_matches(rule, direction, expand)
        for svc in services
    ]


_SIDE = {"in": 0, "out": 1}  # index of a direction in _rule_matches' answer


def _order(policy: Policy) -> tuple:
    return policy.order


def _jumps(policy: Policy, direction: str) -> bool:
    """Whether tenant chains jump to this site policy's chain (some rule of it applies)."""
    return memo(policy, f"_nft_jump{direction}", lambda: any(applies(r, direction) for r in policy.rules))


def jump_lines(policy: Policy) -> tuple[list[str], list[str]]:
    """A site policy's place in tenant chains: its jump lines ("in", "out"), each maybe none."""
    return memo(
        policy,
        "_nft_jump_lines",
        lambda: tuple([f"\t\tjump {policy_chain(policy, d)}"] if _jumps(policy, d) else [] for d in _SIDE),
    )


def tenant_chain_body(site: Site, tenant: Tenant, direction: str) -> list[str]:
    """Statements of one tenant chain: site policies by jump, own policies inline, in order."""
    lines: list[str] = []
    side = _SIDE[direction]
    for policy in sorted(site.policies + tenant.policies, key=_order):
        if policy.scope is Scope.SITE:
            if _jumps(policy, direction):
                lines.append(f"jump {policy_chain(policy, direction)}")
            continue
        for rule in policy.rules:
            if rule.enabled:
                tail = _tail(policy, rule)
                lines += [match[2:] + tail for match in _rule_matches(rule)[side]]
    return lines


def policy_chain_body(policy: Policy, direction: str) -> list[str]:
    """Statements of one shared site-policy chain."""
    return [s for r in policy.rules if applies(r, direction) for s in rule_statements(policy, r, direction)]


def policy_lines(policy: Policy, chain_in: list[str], chain_out: list[str]) -> None:
    """Append a tenant policy's statements to both chains."""
    for rule in policy.rules:
        if not rule.enabled:
            continue
        try:  # the shapes' memos read in C: one flat key, None between the sides
            key = (
                *map(_SHAPE, rule.sources),
                None,
                *map(_SHAPE, rule.destinations),
                None,
                *map(_SHAPE, rule.services),
                rule.direction,
            )
            starts_in, starts_out = _MATCHES[key]
        except (AttributeError, KeyError):  # a group, service or shape seen for the first time
            starts_in, starts_out = _rule_matches(rule)
        tail = _tail(policy, rule)
        for start in starts_in:
            chain_in.append(start + tail)
        for start in starts_out:
            chain_out.append(start + tail)
