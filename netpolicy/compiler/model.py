"""Policy IR: frozen, validated dataclasses shared by the compilers and the analyser."""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass, field
from enum import StrEnum

from core import addresses

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

# No "__" so compilers can use it as an unambiguous separator in derived names.
# \A...\Z, never ^...$: `$` also matches before a trailing newline.
NAME_MAX = 40
NAME_RE = re.compile(r"\A[a-z](?:_?[a-z0-9])*\Z")  # at most NAME_MAX characters, checked apart
IFNAME_RE = re.compile(r"\A[A-Za-z0-9_.-]{1,15}\Z")
MAX_PORT = 65535
# One tenant's share of a node (the default policy: 4 statements): rules' sources x destinations x services,
# and the networks of the groups they name.
MAX_TENANT_STATEMENTS = 10_000
MAX_TENANT_NETWORKS = 20_000
PORT_RE = re.compile(r"([0-9]{1,5})(?:-([0-9]{1,5}))?")


class PolicyError(ValueError):
    """Raised for any invalid policy input; the message names the offending object."""


class Protocol(StrEnum):
    TCP = "tcp"
    UDP = "udp"
    ICMP = "icmp"
    ANY = "any"


class Action(StrEnum):
    ALLOW = "allow"
    DROP = "drop"
    REJECT = "reject"


class Direction(StrEnum):
    IN = "in"
    OUT = "out"
    IN_OUT = "in-out"


class Scope(StrEnum):
    SITE = "site"
    TENANT = "tenant"


class Category(StrEnum):
    EMERGENCY = "emergency"
    INFRASTRUCTURE = "infrastructure"
    ENVIRONMENT = "environment"
    APPLICATION = "application"

    @property
    def rank(self) -> int:
        """Evaluation order: emergency first, application last."""
        return _CATEGORY_RANKS[self]


# Looked up, not searched: every policy's sort key reads its category's rank.
_CATEGORY_RANKS = {category: rank for rank, category in enumerate(Category)}


def check_name(kind: str, name: str) -> None:
    """Names become nft identifiers and NSX ids, so keep them to a safe alphabet."""
    if not isinstance(name, str) or len(name) > NAME_MAX or not NAME_RE.fullmatch(name):
        raise PolicyError(
            f"{kind} name {name!r} is invalid: use a-z, 0-9 and single underscores,"
            " start with a letter, at most 40 chars"
        )


def parse_network(text: str | Network, where: str) -> Network:
    """Parse a CIDR strictly: /33 and host bits set are errors, not silently fixed."""
    if isinstance(text, ipaddress.IPv4Network | ipaddress.IPv6Network):
        text = str(text)  # re-checked: an ipaddress object may still carry a scope id
    try:
        return addresses.parse_network(text, canonical=False)
    except addresses.AddressError as exc:
        raise PolicyError(f"{where}: invalid network {text!r}: {exc}") from None


@dataclass(frozen=True, order=True)
class PortRange:
    start: int
    end: int

    def __post_init__(self) -> None:
        for port in (self.start, self.end):
            if not isinstance(port, int) or isinstance(port, bool) or not 1 <= port <= MAX_PORT:
                raise PolicyError(f"port {port!r} is out of range 1..{MAX_PORT}")
        if self.start > self.end:
            raise PolicyError(f"port range {self.start}-{self.end} is inverted")

    @classmethod
    def parse(cls, text: str | int) -> PortRange:
        """Accept 22, '22' or '6817-6819' (ASCII digits only: int() would also take ' 22', '2_2', '٢٢')."""
        if isinstance(text, int) and not isinstance(text, bool):
            return cls(text, text)
        match = PORT_RE.fullmatch(text) if isinstance(text, str) else None
        if match is None:
            raise PolicyError(f"port {text!r} is not a number or range such as 22 or 6817-6819")
        return cls(int(match[1]), int(match[2] or match[1]))

    def __str__(self) -> str:
        return str(self.start) if self.start == self.end else f"{self.start}-{self.end}"


@dataclass(frozen=True)
class Service:
    """A protocol plus destination ports; no ports means every port of that protocol."""

    name: str
    protocol: Protocol
    ports: tuple[PortRange, ...] = ()

    def __post_init__(self) -> None:
        check_name("service", self.name)
        object.__setattr__(self, "protocol", Protocol(self.protocol))
        ports = tuple(sorted(p if isinstance(p, PortRange) else PortRange.parse(p) for p in self.ports))
        if ports and self.protocol not in (Protocol.TCP, Protocol.UDP):
            raise PolicyError(f"service {self.name}: ports only apply to tcp and udp")
        object.__setattr__(self, "ports", ports)


@dataclass(frozen=True)
class Group:
    """A set of addresses; tenant role tags (login/manager/worker) are resolved by the caller."""

    name: str
    scope: Scope
    tenant: str | None = None
    cidrs: tuple[Network, ...] = ()
    tags: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        check_name("group", self.name)
        object.__setattr__(self, "scope", Scope(self.scope))
        if (self.scope is Scope.TENANT) != (self.tenant is not None):
            raise PolicyError(f"group {self.name}: tenant groups need a tenant, site groups none")
        nets = {parse_network(c, f"group {self.name}") for c in self.cidrs}
        object.__setattr__(self, "cidrs", tuple(sorted(nets, key=_net_key)))
        object.__setattr__(self, "tags", tuple(sorted(set(self.tags))))

    @property
    def key(self) -> str:
        """Unique id across the site: tenant groups are namespaced by their tenant."""
        return f"{self.tenant}.{self.name}" if self.tenant else self.name


def _net_key(net: Network) -> tuple[int, int, int]:
    return (net.version, int(net.network_address), net.prefixlen)


@dataclass(frozen=True)
class Rule:
    """One firewall rule; empty sources/destinations/services mean ANY."""

    id: str
    sequence: int
    action: Action
    sources: tuple[Group, ...] = ()
    destinations: tuple[Group, ...] = ()
    services: tuple[Service, ...] = ()
    direction: Direction = Direction.IN_OUT
    logged: bool = False
    enabled: bool = True

    def __post_init__(self) -> None:
        check_name("rule", self.id)
        if not isinstance(self.sequence, int) or self.sequence < 0:
            raise PolicyError(f"rule {self.id}: sequence must be a non-negative integer")
        object.__setattr__(self, "action", Action(self.action))
        object.__setattr__(self, "direction", Direction(self.direction))
        for attr in ("sources", "destinations", "services"):
            object.__setattr__(self, attr, tuple(getattr(self, attr)))


@dataclass(frozen=True)
class Policy:
    """An ordered list of rules in one category, owned by the site or by one tenant."""

    id: str
    scope: Scope
    category: Category
    sequence: int
    rules: tuple[Rule, ...] = ()
    tenant: str | None = None

    def __post_init__(self) -> None:
        check_name("policy", self.id)
        object.__setattr__(self, "scope", Scope(self.scope))
        object.__setattr__(self, "category", Category(self.category))
        if (self.scope is Scope.TENANT) != (self.tenant is not None):
            raise PolicyError(f"policy {self.id}: tenant policies need a tenant, site ones none")
        rules = tuple(sorted(self.rules, key=lambda r: (r.sequence, r.id)))
        _check_unique(f"policy {self.id}", "sequence number", [r.sequence for r in rules])
        _check_unique(f"policy {self.id}", "rule id", [r.id for r in rules])
        for rule in rules:
            self._check_groups(rule)
        object.__setattr__(self, "rules", rules)

    def _check_groups(self, rule: Rule) -> None:
        """Site rules name only site groups; tenant rules only their own or site groups."""
        for group in rule.sources + rule.destinations:
            if group.scope is Scope.TENANT and group.tenant != self.tenant:
                raise PolicyError(f"policy {self.id} rule {rule.id}: group {group.key} belongs to another tenant")

    @property
    def order(self) -> tuple[int, int, str]:
        """Sort key: category first, then sequence, then id for a stable tie-break."""
        return (self.category.rank, self.sequence, self.id)


def _check_unique(where: str, what: str, values: list) -> None:
    seen: set = set()
    for value in values:
        if value in seen:
            raise PolicyError(f"{where}: {what} {value} is used twice")
        seen.add(value)


@dataclass(frozen=True)
class Tenant:
    """A tenant as seen by a node: its interface (VRF or VXLAN), address space and policies."""

    name: str
    interface: str
    cidrs: tuple[Network, ...]
    policies: tuple[Policy, ...] = ()
    # derived: the tenant-scoped groups its rules name, by name (one definition per name)
    groups: dict[str, Group] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        check_name("tenant", self.name)
        if not IFNAME_RE.fullmatch(self.interface or ""):
            raise PolicyError(
                f"tenant {self.name}: interface {self.interface!r} is not a valid Linux interface name (1-15 chars)"
            )
        nets = {parse_network(c, f"tenant {self.name}") for c in self.cidrs}
        object.__setattr__(self, "cidrs", tuple(sorted(nets, key=_net_key)))
        for policy in self.policies:
            if policy.tenant != self.name:
                raise PolicyError(f"tenant {self.name}: policy {policy.id} is not this tenant's")
        pols = tuple(sorted(self.policies, key=lambda p: p.order))
        _check_unique(f"tenant {self.name}", "policy id", [p.id for p in pols])
        object.__setattr__(self, "policies", pols)
        groups: dict[str, Group] = {}
        for policy in pols:
            for rule in policy.rules:
                for grp in rule.sources + rule.destinations:
                    if grp.scope is Scope.TENANT:
                        _merge_one(groups, grp.name, grp, f"tenant {self.name} group")
        object.__setattr__(self, "groups", groups)
        _check_size(self)


def _check_size(tenant: Tenant) -> None:
    """One tenant's rules and networks are bounded: every node of its pool loads them with the others'.

    A rule's statements multiply its sources, destinations and services (120 x 120 groups x 8 services
    made 31 MB of nft), and the pool's document is shared by every tenant on it. Raised here, the bound
    refuses the change that crosses it and quarantines a tenant stored before it (build_site_isolating).
    """
    statements = sum(max(len(r.sources), 1) * max(len(r.destinations), 1) * max(len(r.services), 1)
                     for p in tenant.policies for r in p.rules if r.enabled)  # fmt: skip
    networks = sum(len(g.cidrs) for g in tenant.groups.values())
    if statements > MAX_TENANT_STATEMENTS or networks > MAX_TENANT_NETWORKS:
        raise PolicyError(
            f"tenant {tenant.name}: its rules would make about {statements:,} statements over {networks:,} networks "
            f"on each node, more than one tenant may have ({MAX_TENANT_STATEMENTS:,} and {MAX_TENANT_NETWORKS:,}); "
            "name fewer groups or services per rule"
        )


@dataclass(frozen=True)
class Site:
    """Everything one node enforces: site policies, tenants on the node, and catalogues."""

    policies: tuple[Policy, ...] = ()
    tenants: tuple[Tenant, ...] = ()
    services: tuple[Service, ...] = ()
    groups: tuple[Group, ...] = ()

    def __post_init__(self) -> None:
        for policy in self.policies:
            if policy.scope is not Scope.SITE:
                raise PolicyError(f"site: policy {policy.id} is tenant-scoped")
        pols = tuple(sorted(self.policies, key=lambda p: p.order))
        tenants = tuple(sorted(self.tenants, key=lambda t: t.name))
        _check_unique("site", "policy id", [p.id for p in pols] + [p.id for t in tenants for p in t.policies])
        _check_unique("site", "tenant", [t.name for t in tenants])
        _check_unique("site", "tenant interface", [t.interface for t in tenants])
        object.__setattr__(self, "policies", pols)
        object.__setattr__(self, "tenants", tenants)
        self._build_catalogues()

    def _build_catalogues(self) -> None:
        """Union of declared and used services and site groups; one definition per name."""
        services = {s.name: s for s in self.services}
        groups = {g.name: g for g in self.groups if g.scope is Scope.SITE}
        for _, rule in self.all_rules():
            for svc in rule.services:
                _merge_one(services, svc.name, svc, "site: service")
            for grp in rule.sources + rule.destinations:
                if grp.scope is Scope.SITE:
                    _merge_one(groups, grp.name, grp, "site: site group")
        object.__setattr__(self, "services", tuple(services[k] for k in sorted(services)))
        object.__setattr__(self, "groups", tuple(groups[k] for k in sorted(groups)))

    def all_rules(self) -> list[tuple[Policy, Rule]]:
        """Every rule of the site and of every tenant (no particular evaluation order)."""
        policies = list(self.policies) + [p for t in self.tenants for p in t.policies]
        return [(p, r) for p in policies for r in p.rules]

    def tenant(self, name: str) -> Tenant:
        """Look a tenant up by name."""
        for tenant in self.tenants:
            if tenant.name == name:
                return tenant
        raise PolicyError(f"site: no tenant {name!r}")

    def rules_for(self, tenant: Tenant | None) -> list[tuple[Policy, Rule]]:
        """Rules in evaluation order at one tenant's enforcement point (site rules if None)."""
        policies = list(self.policies) + (list(tenant.policies) if tenant else [])
        policies.sort(key=lambda p: p.order)
        return [(p, r) for p in policies for r in p.rules]


def _merge_one(catalogue: dict, name: str, item: object, kind: str) -> None:
    """Two different objects under one name would compile to one nft set: refuse it."""
    known = catalogue.setdefault(name, item)
    if known != item:
        raise PolicyError(f"{kind} {name} has two different definitions")
