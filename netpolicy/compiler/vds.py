"""Compile a tenant's policy IR into vSphere Distributed Switch traffic filtering (no NSX needed).

The enforcement point is the tenant's own port group: its `filterPolicy` holds one
`DvsTrafficRuleset`, evaluated first match wins at every VM port. Directions are the port's:
`incomingPackets` are packets a VM sends into the switch (the tenant's egress, IR direction OUT),
`outgoingPackets` the packets the switch delivers to a VM (ingress, IR IN), `both` either.

The VDS filter is stateless, and its traffic-filter qualifiers match single IPs or prefixes and
*single* ports only (DvsSingleIpPort; no port ranges), with accept and drop as the only verdicts.
So, compared with the stateful nftables compile of the same IR:
- replies come from explicit return rules, placed first as nft's `ct state established` is: a
  TCP/UDP allow gets "from its destinations, source port P, to its sources" per port; an ICMP
  allow gets ICMP back (any ICMP type: noted by lint);
- port ranges become one rule per port, refused above MAX_PORTS_PER_RANGE;
- reject becomes drop and logging is not available (noted by lint);
- an allow of every protocol one way between two different address sets cannot be answered by
  a stateless filter without opening every protocol the other way, so it is refused.
Anything refused raises VdsError naming the rule: never silently dropped.
"""

from __future__ import annotations

import hashlib
import ipaddress
import json
from dataclasses import asdict, dataclass, replace
from enum import StrEnum

from .model import Action, Direction, Group, Policy, PolicyError, Protocol, Rule, Service, Site, Tenant
from .nft_statements import applies, merged_ports

INCOMING = "incomingPackets"  # from a VM into the switch: the tenant's egress (IR OUT)
OUTGOING = "outgoingPackets"  # from the switch to a VM: the tenant's ingress (IR IN)
BOTH = "both"
PORT_DIRECTION = {Direction.OUT: INCOMING, Direction.IN: OUTGOING, Direction.IN_OUT: BOTH}
REVERSE = {INCOMING: OUTGOING, OUTGOING: INCOMING, BOTH: BOTH}
PROTOCOL_NUMBER = {Protocol.TCP: 6, Protocol.UDP: 17}
ICMP_NUMBER = {4: 1, 6: 58}
MAX_PORTS_PER_RANGE = 64  # the filter matches single ports: a range costs one rule per port
MAX_RULES = 4096  # Enclave's own bound on one port group's ruleset, to keep per-packet work small


class VdsError(PolicyError):
    """The policy holds something a VDS traffic filter cannot enforce; the message names the rule."""


class NoteKind(StrEnum):
    REFUSED = "vds-refused"
    APPROXIMATE = "vds-approximate"


@dataclass(frozen=True)
class Note:
    """What lint says about a rule's VDS form: refused, or enforced with a stated difference."""

    kind: NoteKind
    policy: str
    rule: str
    message: str


@dataclass(frozen=True, order=True)
class VdsRule:
    """One DvsTrafficRule with one IP qualifier; None means the qualifier matches anything."""

    sequence: int
    description: str
    action: str  # "accept" | "drop"
    direction: str
    protocol: int | None = None
    source: str | None = None  # a network (a single address is /32 or /128)
    destination: str | None = None
    source_port: int | None = None
    destination_port: int | None = None

    def match(self) -> tuple:
        """Everything but the sequence and description: what the rule matches and does."""
        return (self.action, self.direction, self.protocol, self.source, self.destination,
                self.source_port, self.destination_port)  # fmt: skip


def ruleset_digest(rules: tuple[VdsRule, ...]) -> str:
    """A stable fingerprint of a compiled ruleset (what drift checks compare)."""
    body = json.dumps([asdict(r) for r in rules], sort_keys=True)
    return hashlib.sha256(body.encode()).hexdigest()[:16]


# ---------------------------------------------------------------- refusals and notes


def _nets(groups: tuple[Group, ...]) -> list | None:
    """A rule side's networks (None for ANY)."""
    if not groups:
        return None
    return [net for group in groups for net in group.cidrs]


def _any_protocol(rule: Rule) -> bool:
    return not rule.services or any(s.protocol is Protocol.ANY for s in rule.services)


def _symmetric(rule: Rule) -> bool:
    """Whether the reverse of every packet the rule allows is allowed by the rule itself."""
    src, dst = _nets(rule.sources), _nets(rule.destinations)
    same = (src is None and dst is None) or (src is not None and dst is not None and set(src) == set(dst))
    return same and rule.direction is Direction.IN_OUT


def notes(site: Site, tenant: Tenant | None, own_only: bool = True) -> list[Note]:
    """Lint of the vSphere form of a tenant's rules (site rules if None): refused and approximated.

    `own_only=False`: every rule enforced at the tenant's port group, site rules included.
    """
    owned = {p.id for p in (tenant.policies if tenant else site.policies)}
    found = []
    for policy, rule in site.rules_for(tenant):
        if rule.enabled and (policy.id in owned or not own_only):
            found += _rule_notes(policy, rule)
    return found


def _rule_notes(policy: Policy, rule: Rule) -> list[Note]:
    tag = f"rule {policy.id}/{rule.id}"
    out = []

    def note(kind: NoteKind, text: str) -> None:
        out.append(Note(kind, policy.id, rule.id, f"{tag} {text}"))

    if rule.action is Action.ALLOW and _any_protocol(rule) and not _symmetric(rule):
        note(NoteKind.REFUSED, "allows every protocol one way; the vSphere switch filter is stateless and "
             "would have to accept every packet back from its destinations. Name TCP/UDP services (replies "
             "are matched by port) or allow the same groups both ways (in-out).")  # fmt: skip
    for service in rule.services:
        for rng in merged_ports(service.ports):
            if rng.end - rng.start + 1 > MAX_PORTS_PER_RANGE:
                note(NoteKind.REFUSED, f"has port range {rng} of service {service.name}, which would take "
                     f"{rng.end - rng.start + 1} vSphere filter rules (the switch matches single ports "
                     f"only; at most {MAX_PORTS_PER_RANGE} per range).")  # fmt: skip
    if rule.action is Action.REJECT:
        note(NoteKind.APPROXIMATE, "is enforced as drop on vSphere: reject sends no ICMP reply there.")
    if rule.logged:
        note(NoteKind.APPROXIMATE, "is not logged on vSphere: the switch filter does not log, Linux nodes do.")
    if rule.action is Action.ALLOW and any(s.protocol is Protocol.ICMP for s in rule.services) \
            and not _symmetric(rule):  # fmt: skip
        note(NoteKind.APPROXIMATE, "lets any ICMP back from its destinations on vSphere "
             "(the switch filter is stateless).")  # fmt: skip
    return out


# ---------------------------------------------------------------- compile


def _pairs(rule: Rule, reverse: bool) -> list[tuple[str | None, str | None, int | None]]:
    """(source, destination, IP version or None) of every address pair the rule spans."""
    src, dst = _nets(rule.sources), _nets(rule.destinations)
    if reverse:
        src, dst = dst, src
    if src is None and dst is None:
        return [(None, None, None)]
    if src is None:
        return [(None, str(d), d.version) for d in dst or ()]  # dst is not None here
    if dst is None:
        return [(str(s), None, s.version) for s in src]
    return [(str(s), str(d), s.version) for s in src for d in dst if s.version == d.version]


def _protocols(service: Service | None, version: int | None) -> list[int | None]:
    if service is None or service.protocol is Protocol.ANY:
        return [None]
    if service.protocol is Protocol.ICMP:
        return [ICMP_NUMBER[version]] if version else [ICMP_NUMBER[4], ICMP_NUMBER[6]]
    return [PROTOCOL_NUMBER[service.protocol]]


def _ports(service: Service | None) -> list[int | None]:
    if service is None or not service.ports:
        return [None]
    return [p for rng in merged_ports(service.ports) for p in range(rng.start, rng.end + 1)]


def _expand(policy: Policy, rule: Rule, direction: str, reply: bool) -> list[VdsRule]:
    """The VDS rules of one IR rule (or of its replies) at one port direction, unsequenced."""
    action = "accept" if rule.action is Action.ALLOW else "drop"
    text = f"enclave {policy.id}/{rule.id}" + (" reply" if reply else "")
    out = []
    for service in rule.services or (None,):
        for src, dst, version in _pairs(rule, reverse=reply):
            for protocol in _protocols(service, version):
                for port in _ports(service):
                    src_port, dst_port = (port, None) if reply else (None, port)
                    out.append(VdsRule(0, text, action, REVERSE[direction] if reply else direction,
                                       protocol, src, dst, src_port, dst_port))  # fmt: skip
    return out


def _direction(rule: Rule) -> str | None:
    """The port direction of a rule (None when disabled)."""
    if not any(applies(rule, d) for d in (Direction.IN.value, Direction.OUT.value)):
        return None
    return PORT_DIRECTION[rule.direction]


def _replies(site: Site, tenant: Tenant) -> list[VdsRule]:
    """Return traffic of every allowed TCP/UDP/ICMP flow, as nft's `ct state established` (first)."""
    out = []
    for policy, rule in site.rules_for(tenant):
        direction = _direction(rule)
        if direction is None or rule.action is not Action.ALLOW or _symmetric(rule):
            continue
        for service in rule.services:
            if service.protocol in (Protocol.TCP, Protocol.UDP, Protocol.ICMP):
                out += _expand(policy, replace(rule, services=(service,)), direction, True)
    return out


def compile_tenant(site: Site, tenant_name: str) -> tuple[VdsRule, ...]:
    """The tenant port group's ruleset: replies first, then every rule in evaluation order."""
    tenant = site.tenant(tenant_name)
    refused = [n.message for n in notes(site, tenant, own_only=False) if n.kind is NoteKind.REFUSED]
    if refused:
        raise VdsError("; ".join(refused))
    rules = _replies(site, tenant)
    for policy, rule in site.rules_for(tenant):
        direction = _direction(rule)
        if direction is not None:
            rules += _expand(policy, rule, direction, False)
    unique, seen = [], set()
    for vds_rule in rules:  # a reply equal to an earlier rule adds nothing
        if vds_rule.match() not in seen:
            seen.add(vds_rule.match())
            unique.append(vds_rule)
    if len(unique) > MAX_RULES:
        raise VdsError(f"tenant {tenant_name}: {len(unique)} vSphere filter rules exceed Enclave's bound of "
                       f"{MAX_RULES} per port group; use fewer networks or ports per rule.")  # fmt: skip
    return tuple(VdsRule(10 * (i + 1), *_fields(r)) for i, r in enumerate(unique))


def _fields(rule: VdsRule) -> tuple:
    return (rule.description, rule.action, rule.direction, rule.protocol, rule.source, rule.destination,
            rule.source_port, rule.destination_port)  # fmt: skip


def decide(rules: tuple[VdsRule, ...], src: str, dst: str, protocol: int, port: int | None,
           direction: str) -> VdsRule | None:  # fmt: skip
    """The first rule matching one packet at a VM port (None: no rule, the switch forwards it)."""
    s, d = ipaddress.ip_address(src), ipaddress.ip_address(dst)
    for rule in rules:
        if rule.direction not in (direction, BOTH):
            continue
        if rule.protocol is not None and rule.protocol != protocol:
            continue
        if rule.source is not None and s not in ipaddress.ip_network(rule.source):
            continue
        if rule.destination is not None and d not in ipaddress.ip_network(rule.destination):
            continue
        if rule.destination_port is not None and rule.destination_port != port:
            continue
        if rule.source_port is not None:
            continue  # replies are matched on the source port; a new flow's source port is arbitrary
        return rule
    return None
