"""Rule analysis: shadowed, redundant and cross-tenant-exposing rules, and what-if queries."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from .model import (
    Action,
    Direction,
    Group,
    Network,
    Policy,
    PolicyError,
    Protocol,
    Rule,
    Scope,
    Service,
    Site,
    Tenant,
)
from .nft_statements import applies

Intervals = list[tuple[int, int]]
# None means ANY; otherwise address intervals per IP version, or port intervals per protocol.
Space = dict | None
ICMP_MARK = [(0, 0)]
DIRECTIONS = (Direction.IN.value, Direction.OUT.value)


class FindingKind(StrEnum):
    SHADOWED = "shadowed"
    REDUNDANT = "redundant"
    EXPOSES = "exposes"
    EXPOSES_OUTSIDE = "exposes-outside"
    EMPTY = "matches-nothing"


@dataclass(frozen=True)
class Finding:
    kind: FindingKind
    policy: str
    rule: str
    message: str
    by_policy: str | None = None
    by_rule: str | None = None


@dataclass(frozen=True)
class Decision:
    """What-if answer: the action, the deciding rule (None: no rule, default accept), where."""

    action: Action
    policy: str | None
    rule: str | None
    where: str


# ---------------------------------------------------------------- match spaces


def merge(intervals: Intervals) -> Intervals:
    """Sort and merge overlapping or adjacent closed intervals."""
    out: Intervals = []
    for lo, hi in sorted(intervals):
        if out and lo <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out


def contains(outer: Intervals, inner: Intervals) -> bool:
    """Whether every inner interval lies within one merged outer interval."""
    return all(any(lo >= a and hi <= b for a, b in outer) for lo, hi in inner)


def overlaps(left: Intervals, right: Intervals) -> bool:
    """Whether any two intervals intersect."""
    return any(lo <= b and a <= hi for lo, hi in left for a, b in right)


def address_space(groups: tuple[Group, ...]) -> Space:
    """Address intervals per IP version of a rule side; None for ANY."""
    if not groups:
        return None
    space: dict[int, Intervals] = {4: [], 6: []}
    for group in groups:
        for net in group.cidrs:
            space[net.version].append((int(net.network_address), int(net.broadcast_address)))
    return {v: merge(iv) for v, iv in space.items()}


def cidr_space(cidrs: Iterable[Network]) -> dict[int, Intervals]:
    """Address intervals of a list of networks."""
    return address_space((Group("x", Scope.SITE, cidrs=tuple(cidrs)),)) or {}


def service_space(rule: Rule) -> Space:
    """Port intervals per protocol; None for ANY protocol."""
    if not rule.services or any(s.protocol is Protocol.ANY for s in rule.services):
        return None
    space: dict[str, Intervals] = {}
    for svc in rule.services:
        space.setdefault(svc.protocol.value, []).extend(_port_intervals(svc))
    return {k: merge(v) for k, v in space.items()}


def _port_intervals(service: Service) -> Intervals:
    """Ports of a service; ICMP has none, so it gets a single marker point."""
    if service.protocol is Protocol.ICMP:
        return ICMP_MARK
    return [(p.start, p.end) for p in service.ports] or [(1, 65535)]


def space_covers(outer: Space, inner: Space) -> bool:
    """Whether outer matches everything inner matches."""
    if outer is None:
        return True
    if inner is None:
        return False
    return all(contains(outer.get(k, []), iv) for k, iv in inner.items())


def space_overlaps(left: Space, right: Space) -> bool:
    """Whether two spaces share at least one point."""
    if left is None or right is None:
        return True
    return any(overlaps(iv, right.get(k, [])) for k, iv in left.items())


def rule_covers(earlier: Rule, later: Rule) -> bool:
    """Whether every packet matching `later` already matches `earlier`."""
    return (
        space_covers(address_space(earlier.sources), address_space(later.sources))
        and space_covers(address_space(earlier.destinations), address_space(later.destinations))
        and space_covers(service_space(earlier), service_space(later))
    )


# ---------------------------------------------------------------- shadowing


def _is_empty(space: Space) -> bool:
    """A rule side naming groups that hold no addresses (None is ANY, which is not empty)."""
    return space is not None and not any(space.values())


def _first_cover(ordered: list[tuple[Policy, Rule]], index: int, direction: str) -> tuple[Policy, Rule] | None:
    """The earliest rule before `index` that covers it at this direction, if any."""
    later = ordered[index][1]
    for policy, rule in ordered[:index]:
        if applies(rule, direction) and rule_covers(rule, later):
            return policy, rule
    return None


def _cover_finding(ordered: list[tuple[Policy, Rule]], index: int) -> Finding | None:
    policy, rule = ordered[index]
    sides = [d for d in DIRECTIONS if applies(rule, d)]
    found = [_first_cover(ordered, index, d) for d in sides]
    covers = [c for c in found if c is not None]
    empty = _empty_groups(rule)
    if sides and len(covers) == len(found) and not (empty and not all(_names_groups_of(c[1], rule) for c in covers)):
        by_policy, by_rule = covers[0]
        same = all(c[1].action == rule.action for c in covers)
        kind = FindingKind.REDUNDANT if same else FindingKind.SHADOWED
        verb = "is redundant with" if same else "never decides: it is shadowed by"
        return Finding(
            kind,
            policy.id,
            rule.id,
            f"rule {policy.id}/{rule.id} {verb} {by_policy.id}/{by_rule.id}",
            by_policy.id,
            by_rule.id,
        )
    if empty:
        # An empty group is covered by anything; saying so would hide the real problem.
        return Finding(FindingKind.EMPTY, policy.id, rule.id,
                       f"rule {policy.id}/{rule.id} matches no traffic yet: group(s) "
                       f"{', '.join(empty)} hold no addresses")  # fmt: skip
    return None


def _empty_groups(rule: Rule) -> list[str]:
    """Names of the groups of a rule side that holds no addresses at all (ANY is not empty)."""
    sides = (rule.sources, rule.destinations)
    return sorted({g.name for side in sides if _is_empty(address_space(side)) for g in side})


def _names_groups_of(earlier: Rule, later: Rule) -> bool:
    """Whether the earlier rule covers the later one by naming its very groups (or ANY)."""
    return all(
        not e or set(e) >= set(lt)
        for e, lt in ((earlier.sources, later.sources), (earlier.destinations, later.destinations))
    )


def cover_findings(site: Site, tenant: Tenant | None) -> list[Finding]:
    """Shadowed/redundant findings at one enforcement point (tenant rules only if a tenant)."""
    ordered = site.rules_for(tenant)
    owned = {p.id for p in tenant.policies} if tenant else {p.id for p in site.policies}
    findings = []
    for index, (policy, _) in enumerate(ordered):
        if policy.id in owned and (finding := _cover_finding(ordered, index)):
            findings.append(finding)
    return findings


# ---------------------------------------------------------------- exposure


def _tenant_spaces(site: Site) -> list[tuple[Tenant, dict]]:
    return [(t, cidr_space(t.cidrs)) for t in site.tenants]


def exposure_findings(site: Site, policy: Policy, spaces: list[tuple[Tenant, dict]] | None = None) -> list[Finding]:
    """Allow rules letting one tenant's addresses reach another tenant's addresses."""
    spaces = spaces if spaces is not None else _tenant_spaces(site)
    findings = []
    for rule in policy.rules:
        if rule.action is not Action.ALLOW or not rule.enabled:
            continue
        src, dst = address_space(rule.sources), address_space(rule.destinations)
        wide_open = src is None and service_space(rule) is None
        targets = [t for t, sp in spaces if space_overlaps(dst, sp)]
        if policy.tenant:
            targets = [t for t in targets if t.name == policy.tenant]
        for target in targets:
            others = [
                t.name for t, sp in spaces if t.name != target.name and src is not None and space_overlaps(src, sp)
            ]
            if others or wide_open:
                who = ", ".join(others) if others else "every tenant on every port"
                findings.append(
                    Finding(
                        FindingKind.EXPOSES,
                        policy.id,
                        rule.id,
                        f"rule {policy.id}/{rule.id} exposes tenant {target.name} to {who}",
                    )
                )
    return findings


WIDE_OUTSIDE = {4: 24, 6: 48}  # a public network this wide (or wider) is "outside", not a partner host


def outside_findings(policy: Policy) -> list[Finding]:
    """Allow rules letting a wide public network (a /24 or wider, not private) into the tenant."""
    findings = []
    for rule in policy.rules:
        if rule.action is not Action.ALLOW or not rule.enabled or rule.direction is Direction.OUT:
            continue
        wide = [
            net
            for g in rule.sources
            for net in g.cidrs
            if not net.is_private and net.prefixlen <= WIDE_OUTSIDE[net.version]
        ]
        if wide:
            findings.append(
                Finding(
                    FindingKind.EXPOSES_OUTSIDE,
                    policy.id,
                    rule.id,
                    f"rule {policy.id}/{rule.id} opens tenant {policy.tenant} to outside "
                    f"network{'s' if len(wide) > 1 else ''} {', '.join(map(str, wide))}",
                )
            )
    return findings


def analyse_tenant(site: Site, name: str) -> list[Finding]:
    """Findings for one tenant's own rules (what the API shows after a tenant edit)."""
    tenant = site.tenant(name)
    spaces = _tenant_spaces(site)
    findings = cover_findings(site, tenant)
    for policy in tenant.policies:
        findings += exposure_findings(site, policy, spaces) + outside_findings(policy)
    return findings


def analyse(site: Site) -> list[Finding]:
    """All findings: site policies first, then every tenant in name order."""
    spaces = _tenant_spaces(site)
    findings = cover_findings(site, None)
    for policy in site.policies:
        findings += exposure_findings(site, policy, spaces)
    for tenant in site.tenants:
        findings += cover_findings(site, tenant)
        for policy in tenant.policies:
            findings += exposure_findings(site, policy, spaces) + outside_findings(policy)
    return findings


# ---------------------------------------------------------------- what-if


def _packet_matches(rule: Rule, src: int, dst: int, version: int, proto: str, port: int | None) -> bool:
    for side, addr in ((rule.sources, src), (rule.destinations, dst)):
        space = address_space(side)
        if space is not None and not contains(space[version], [(addr, addr)]):
            return False
    services = service_space(rule)
    if services is None:
        return True
    if proto not in services:
        return False
    return proto == Protocol.ICMP.value or contains(services[proto], [(port or 0,) * 2])


def _decide(site: Site, tenant: Tenant | None, direction: str, packet: tuple) -> Decision:
    where = f"{'ingress to' if direction == 'in' else 'egress from'} " + (
        f"tenant {tenant.name}" if tenant else "the site"
    )
    for policy, rule in site.rules_for(tenant):
        if applies(rule, direction) and _packet_matches(rule, *packet):
            return Decision(rule.action, policy.id, rule.id, where)
    return Decision(Action.ALLOW, None, None, where)


def tenant_of(site: Site, address: str) -> Tenant | None:
    """The tenant of the site whose address space holds the address, if any."""
    return _owner(site, ipaddress.ip_address(address))


def _owner(site: Site, addr: ipaddress.IPv4Address | ipaddress.IPv6Address) -> Tenant | None:
    for tenant in site.tenants:
        if any(addr in net for net in tenant.cidrs if net.version == addr.version):
            return tenant
    return None


def what_if(site: Site, src_ip: str, dst_ip: str, proto: str | Protocol, port: int | None = None) -> Decision:
    """Can src reach dst on proto/port? Egress of the source tenant, then ingress of the dest."""
    try:
        src, dst = ipaddress.ip_address(src_ip), ipaddress.ip_address(dst_ip)
    except ValueError as exc:
        raise PolicyError(f"what-if: {exc}") from None
    if src.version != dst.version:
        raise PolicyError("what-if: source and destination must be the same IP version")
    if proto not in (Protocol.TCP, Protocol.UDP, Protocol.ICMP):
        raise PolicyError(f"what-if: protocol must be tcp, udp or icmp, not {proto!r}")
    proto = Protocol(proto).value
    if proto in (Protocol.TCP.value, Protocol.UDP.value) and not (port and 1 <= port <= 65535):
        raise PolicyError(f"what-if: {proto} needs a port in 1..65535")
    packet = (int(src), int(dst), src.version, proto, port)
    src_t, dst_t = _owner(site, src), _owner(site, dst)
    if src_t is None and dst_t is None:
        return _decide(site, None, Direction.IN.value, packet)
    if src_t is not None:
        egress = _decide(site, src_t, Direction.OUT.value, packet)
        if egress.action is not Action.ALLOW or dst_t is None:
            return egress
    return _decide(site, dst_t, Direction.IN.value, packet)
