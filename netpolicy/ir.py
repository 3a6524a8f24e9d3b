"""Build the pure compiler's Site from the database (ids: t<pk>, p<pk>, r<pk>)."""

import ipaddress
from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Q

from core.lookups import any_of
from netpolicy.choices import DERIVED_SITE_GROUPS
from netpolicy.compiler import model as ir
from netpolicy.models import (
    LIVE,
    Address,
    AddressState,
    FirewallPolicy,
    FirewallRule,
    Group,
    Segment,
    Service,
    SiteSettings,
)
from tenants.models import Tenant

QUARANTINE = "quarantine"  # rule id of the reject-all rule standing in for a broken tenant's policy


def tenant_name(tenant_id: int) -> str:
    """IR name of a tenant (slugs may hold hyphens, which nft/NSX ids must not)."""
    return f"t{tenant_id}"


def interface(tenant_id: int) -> str:
    """The tenant's VRF device on Linux nodes (UVN names VRFs after the id)."""
    return f"vrf{tenant_id}"


def parse_ports(text: str) -> tuple[ir.PortRange, ...]:
    """'22,6817-6819' -> port ranges; '' is every port. Anything else raises PolicyError (no spaces)."""
    if text == "":
        return ()
    return tuple(ir.PortRange.parse(part) for part in text.split(","))


def canonical_ports(text: str) -> str:
    """The ports as stored: the ranges as written, joined by commas (raises PolicyError)."""
    return ",".join(str(p) for p in parse_ports(text))


def to_service(service: Service) -> ir.Service:
    return ir.Service(service.name, ir.Protocol(service.protocol), parse_ports(service.ports))


def host_network(address: str) -> str:
    """One address as a network (/32 or /128), as the IR's groups hold addresses."""
    return str(ipaddress.ip_network(address))


@dataclass(frozen=True, slots=True)
class GroupRow:
    """A group as the builder reads it (the model's own attribute names: Builder.group takes either)."""

    pk: int
    name: str
    tenant_id: int | None
    cidrs: list
    segment_id: int | None
    all_segments: bool
    role: str
    order: tuple  # the model's ordering (tenant slug, nulls last; name): rules keep their groups in it


@dataclass(slots=True)
class RuleRow:
    """A rule with its groups and services (GroupRow, Service), as the builder reads it."""

    pk: int
    policy_id: int
    sequence: int
    action: str
    direction: str
    logged: bool
    enabled: bool
    sources: list = field(default_factory=list)
    destinations: list = field(default_factory=list)
    services: list = field(default_factory=list)


@dataclass(slots=True)
class PolicyRow:
    """A policy with its rules in sequence order."""

    pk: int
    tenant_id: int | None
    category: str
    sequence: int
    rules: list = field(default_factory=list)


class Builder:
    """Loads everything once, then converts rows to IR objects (derived addresses included)."""

    def __init__(self, tenant_ids=None, role_addresses: bool = True):
        live = Segment.objects.filter(LIVE)
        if tenant_ids is not None:  # only tenant groups name segments, so these tenants' suffice
            live = live.filter(any_of("tenant_id", tenant_ids))
        live = live.values_list("pk", "tenant_id", "subnet")
        self.segment_subnets = {pk: subnet for pk, _, subnet in live}
        self.tenant_subnets = defaultdict(list)
        for _, tenant_id, subnet in live:
            self.tenant_subnets[tenant_id].append(subnet)
        self.groups: dict[int, ir.Group] = {}
        self.services: dict[int, ir.Service] = {}
        # NSX matches roles by VM tag: its groups then hold only the addresses written down.
        self.role_addresses = self._role_addresses(tenant_ids) if role_addresses else defaultdict(list)
        settings = SiteSettings.objects.filter(pk=1).first()
        self.site_servers = {name: [host_network(a) for a in getattr(settings, field, None) or []]
                             for name, field in DERIVED_SITE_GROUPS.items()}  # fmt: skip

    @staticmethod
    def _role_addresses(tenant_ids) -> dict[tuple[int, str], list[str]]:
        """(tenant, role) -> addresses of the tenant's VMs in that role (one query)."""
        held = Address.objects.filter(state=AddressState.ALLOCATED)
        if tenant_ids is not None:
            held = held.filter(any_of("cluster__tenant_id", tenant_ids))
        found = defaultdict(list)
        for tenant_id, role, address in held.values_list("cluster__tenant_id", "role", "address").order_by("pk"):
            found[(tenant_id, role)].append(host_network(address))
        return found

    def group(self, group: Group) -> ir.Group:
        """A group's addresses: explicit CIDRs, its segment, all tenant segments if asked, and the
        derived ones: its role's VM addresses, or the site settings' servers."""
        if group.pk not in self.groups:
            cidrs = list(group.cidrs)
            if group.segment_id in self.segment_subnets:
                cidrs.append(self.segment_subnets[group.segment_id])
            if group.all_segments and group.tenant_id:
                cidrs += self.tenant_subnets[group.tenant_id]
            if group.role and group.tenant_id:
                cidrs += self.role_addresses[(group.tenant_id, group.role)]
            if group.tenant_id is None:
                cidrs += self.site_servers.get(group.name, [])
            scope = ir.Scope.TENANT if group.tenant_id else ir.Scope.SITE
            tenant = tenant_name(group.tenant_id) if group.tenant_id else None
            self.groups[group.pk] = ir.Group(
                group.name, scope, tenant, tuple(cidrs), (group.role,) if group.role else ()
            )
        return self.groups[group.pk]

    def service(self, service: Service) -> ir.Service:
        """One IR object per service row, shared by every rule naming it (as groups are)."""
        if service.pk not in self.services:
            self.services[service.pk] = to_service(service)
        return self.services[service.pk]

    def rule(self, rule: RuleRow) -> ir.Rule:
        return ir.Rule(
            f"r{rule.pk}",
            rule.sequence,
            ir.Action(rule.action),
            tuple(self.group(g) for g in rule.sources),
            tuple(self.group(g) for g in rule.destinations),
            tuple(self.service(s) for s in rule.services),
            ir.Direction(rule.direction),
            rule.logged,
            rule.enabled,
        )

    def policy(self, policy: PolicyRow) -> ir.Policy:
        scope = ir.Scope.TENANT if policy.tenant_id else ir.Scope.SITE
        tenant = tenant_name(policy.tenant_id) if policy.tenant_id else None
        rules = tuple(self.rule(r) for r in policy.rules)
        return ir.Policy(f"p{policy.pk}", scope, ir.Category(policy.category), policy.sequence, rules, tenant)


def _policies(services: dict[int, Service], tenant_ids=None) -> list[PolicyRow]:
    """The policies (site ones and these tenants', or all) with their rules, in a few queries of plain rows.

    Plain rows, not model instances with prefetched relations: building the rows of a 50-rule page's
    tenants cost more than the page (Django clones a queryset per related manager and instance).
    """
    policies = FirewallPolicy.objects.order_by("pk")
    if tenant_ids is not None:  # reading every tenant's rules for a few would cost the whole site
        policies = policies.filter(Q(tenant__isnull=True) | Q(any_of("tenant_id", tenant_ids)))
    found = {pk: PolicyRow(pk, *rest) for pk, *rest in
             policies.values_list("pk", "tenant_id", "category", "sequence")}  # fmt: skip
    # Ids, not nested IN subqueries: on a table without statistics yet PostgreSQL can plan those as
    # loops within loops (a 1,000-rule test ran for over ten minutes); as one array (core.lookups).
    rules = FirewallRule.objects.order_by("policy_id", "sequence")
    if tenant_ids is not None:
        rules = rules.filter(any_of("policy_id", found))
    by_pk = {}
    for values in rules.values_list("pk", "policy_id", "sequence", "action", "direction", "logged", "enabled"):
        if values[1] in found:  # else its policy was made after the policies were read: the next build has it
            by_pk[values[0]] = rule = RuleRow(*values)
            found[rule.policy_id].rules.append(rule)
    scoped = tenant_ids is not None
    gone = _attach_members(by_pk, services, scoped)
    # Read again after its groups: a rule deleted meanwhile lost them, and must not be built with none.
    still = FirewallRule.objects.filter(any_of("pk", by_pk)) if scoped else FirewallRule.objects.all()
    gone |= by_pk.keys() - set(still.values_list("pk", flat=True))
    for policy in found.values() if gone else ():
        policy.rules = [r for r in policy.rules if r.pk not in gone]
    return list(found.values())


def _attach_members(by_pk: dict[int, RuleRow], services: dict[int, Service], scoped: bool) -> set[int]:
    """Each rule's groups and services, in the order the models' relations gave them.

    Returns the rules whose groups were deleted between the queries (with their tenant: groups that
    rules name cannot be deleted otherwise): they are left out, never built with fewer groups.
    """
    edges = {}
    for name, target in (("sources", "group_id"), ("destinations", "group_id"), ("services", "service_id")):
        through = getattr(FirewallRule, name).through.objects
        if scoped:
            through = through.filter(any_of("firewallrule_id", by_pk))
        edges[name] = list(through.values_list("firewallrule_id", target))
    group_ids = {g for name in ("sources", "destinations") for _, g in edges[name]}
    groups = _group_rows(group_ids if scoped else None)
    gone = set()
    for name, table, key in (("sources", groups, _group_order), ("destinations", groups, _group_order),
                             ("services", services, _service_order)):  # fmt: skip
        for rule_id, target in edges[name]:
            if rule_id not in by_pk:  # created after the rules were read: the next build has it
                continue
            if target not in table:
                gone.add(rule_id)
                continue
            getattr(by_pk[rule_id], name).append(table[target])
        for rule in by_pk.values():
            getattr(rule, name).sort(key=key)
    return gone


def _group_order(group: "GroupRow") -> tuple:
    return group.order


def _service_order(service: Service) -> str:
    return service.name


def _group_rows(ids=None) -> dict[int, GroupRow]:
    """These groups (all if None) as rows."""
    groups = Group.objects.all() if ids is None else Group.objects.filter(any_of("pk", ids))
    fields = ("pk", "name", "tenant_id", "cidrs", "segment_id", "all_segments", "role", "tenant__slug")
    return {pk: GroupRow(pk, name, tenant, cidrs, segment, every, role, (slug is None, slug or "", name))
            for pk, name, tenant, cidrs, segment, every, role, slug in groups.values_list(*fields)}  # fmt: skip


class _Rows:
    """The rows a site is built from, loaded once: tenants, site policies, each tenant's policies."""

    def __init__(self, tenants=None, role_addresses: bool = True):
        scoped = tenants is not None
        self.tenants = list(tenants if scoped else Tenant.objects.all())
        wanted = {t.pk for t in self.tenants}
        self.builder = Builder(wanted if scoped else None, role_addresses)
        self.site_policies, self.by_tenant = [], defaultdict(list)
        self.services = {s.pk: s for s in Service.objects.all()}  # the catalogue: tens of rows, read once
        for policy in _policies(self.services, wanted if scoped else None):
            if policy.tenant_id is None:
                self.site_policies.append(policy)
            elif policy.tenant_id in wanted:
                self.by_tenant[policy.tenant_id].append(policy)

    def site_part(self) -> tuple:
        """Site policies, the service catalogue and the site groups (raises PolicyError)."""
        policies = tuple(self.builder.policy(p) for p in self.site_policies)
        services = tuple(to_service(s) for s in self.services.values())
        site_groups = Group.objects.filter(tenant__isnull=True).order_by("name")  # the model orders by a join
        groups = tuple(self.builder.group(g) for g in site_groups)
        return policies, services, groups

    def tenant(self, tenant) -> ir.Tenant:
        """One tenant with its policies (raises PolicyError)."""
        return ir.Tenant(
            tenant_name(tenant.pk),
            interface(tenant.pk),
            tuple(self.builder.tenant_subnets[tenant.pk]),
            tuple(self.builder.policy(p) for p in self.by_tenant[tenant.pk]),
        )

    def quarantine(self, tenant) -> ir.Tenant:
        """A tenant whose policy does not compile: one emergency rule rejecting all its traffic (fail closed)."""
        name = tenant_name(tenant.pk)
        rule = ir.Rule(QUARANTINE, 0, ir.Action.REJECT, logged=True)
        policy = ir.Policy(f"q{tenant.pk}", ir.Scope.TENANT, ir.Category.EMERGENCY, 0, (rule,), name)
        try:
            return ir.Tenant(name, interface(tenant.pk), tuple(self.builder.tenant_subnets[tenant.pk]), (policy,))
        except ir.PolicyError:
            return ir.Tenant(name, interface(tenant.pk), (), (policy,))


def build_site(tenants=None, *, role_addresses: bool = True) -> ir.Site:
    """The whole site (or only the given tenants) as the compilers' input; raises PolicyError.

    role_addresses=False leaves role groups without their VMs' addresses (NSX matches those by tag).
    """
    rows = _Rows(tenants, role_addresses)
    policies, services, groups = rows.site_part()
    return ir.Site(policies, tuple(rows.tenant(t) for t in rows.tenants), services, groups)


@dataclass(frozen=True)
class Isolated:
    """A site built for reading: tenants whose own policy does not compile are quarantined, not fatal."""

    site: ir.Site
    broken: dict[int, str]  # tenant pk -> the compiler's message


def build_site_isolating(tenants=None) -> Isolated:
    """Like build_site, but one broken tenant never breaks the others; PolicyError only for the site's part."""
    rows = _Rows(tenants)
    policies, services, groups = rows.site_part()
    built, broken = [], {}
    for tenant in rows.tenants:
        try:
            built.append(rows.tenant(tenant))
        except ir.PolicyError as exc:
            broken[tenant.pk] = str(exc)
            built.append(rows.quarantine(tenant))
    return Isolated(ir.Site(policies, tuple(built), services, groups), broken)
