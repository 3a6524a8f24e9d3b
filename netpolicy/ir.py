"""Build the pure compiler's Site from the database (ids: t<pk>, p<pk>, r<pk>)."""

from collections import defaultdict

from netpolicy.compiler import model as ir
from netpolicy.models import LIVE, FirewallPolicy, Group, Segment, Service
from tenants.models import Tenant


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


class Builder:
    """Loads everything once, then converts rows to IR objects."""

    def __init__(self):
        live = Segment.objects.filter(LIVE).values_list("pk", "tenant_id", "subnet")
        self.segment_subnets = {pk: subnet for pk, _, subnet in live}
        self.tenant_subnets = defaultdict(list)
        for _, tenant_id, subnet in live:
            self.tenant_subnets[tenant_id].append(subnet)
        self.groups: dict[int, ir.Group] = {}

    def group(self, group: Group) -> ir.Group:
        """A group's addresses: explicit CIDRs, its segment, all tenant segments if asked."""
        if group.pk not in self.groups:
            cidrs = list(group.cidrs)
            if group.segment_id in self.segment_subnets:
                cidrs.append(self.segment_subnets[group.segment_id])
            if group.all_segments and group.tenant_id:
                cidrs += self.tenant_subnets[group.tenant_id]
            scope = ir.Scope.TENANT if group.tenant_id else ir.Scope.SITE
            tenant = tenant_name(group.tenant_id) if group.tenant_id else None
            self.groups[group.pk] = ir.Group(group.name, scope, tenant, tuple(cidrs),
                                             (group.role,) if group.role else ())
        return self.groups[group.pk]

    def rule(self, rule) -> ir.Rule:
        return ir.Rule(
            f"r{rule.pk}", rule.sequence, ir.Action(rule.action),
            tuple(self.group(g) for g in rule.sources.all()),
            tuple(self.group(g) for g in rule.destinations.all()),
            tuple(to_service(s) for s in rule.services.all()),
            ir.Direction(rule.direction), rule.logged, rule.enabled,
        )

    def policy(self, policy: FirewallPolicy) -> ir.Policy:
        scope = ir.Scope.TENANT if policy.tenant_id else ir.Scope.SITE
        tenant = tenant_name(policy.tenant_id) if policy.tenant_id else None
        rules = tuple(self.rule(r) for r in policy.rules.all())
        return ir.Policy(f"p{policy.pk}", scope, ir.Category(policy.category), policy.sequence,
                         rules, tenant)


def _policies():
    return FirewallPolicy.objects.prefetch_related(
        "rules__sources", "rules__destinations", "rules__services").order_by("pk")


def build_site(tenants=None) -> ir.Site:
    """The whole site (or only the given tenants) as the compilers' input."""
    builder = Builder()
    tenants = list(tenants if tenants is not None else Tenant.objects.all())
    wanted = {t.pk for t in tenants}
    by_tenant = defaultdict(list)
    site_policies = []
    for policy in _policies():
        if policy.tenant_id is None:
            site_policies.append(builder.policy(policy))
        elif policy.tenant_id in wanted:
            by_tenant[policy.tenant_id].append(builder.policy(policy))
    ir_tenants = [ir.Tenant(tenant_name(t.pk), interface(t.pk), tuple(builder.tenant_subnets[t.pk]),
                            tuple(by_tenant[t.pk])) for t in tenants]
    services = tuple(to_service(s) for s in Service.objects.all())
    groups = tuple(builder.group(g) for g in Group.objects.filter(tenant__isnull=True))
    return ir.Site(tuple(site_policies), tuple(ir_tenants), services, groups)
