"""The default isolation policy every tenant gets, and the seeded service catalogue."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .model import (
    Action,
    Category,
    Direction,
    Group,
    Network,
    Policy,
    Protocol,
    Rule,
    Scope,
    Service,
    Tenant,
)

SSH = Service("ssh", Protocol.TCP, ("22",))
ICMP = Service("icmp", Protocol.ICMP)
DHCP = Service("dhcp", Protocol.UDP, ("67-68",))
DNS_UDP = Service("dns_udp", Protocol.UDP, ("53",))
DNS_TCP = Service("dns_tcp", Protocol.TCP, ("53",))
# NFSv4 needs only 2049; rpcbind (111) keeps NFSv3 clients working too.
NFS_TCP = Service("nfs_tcp", Protocol.TCP, ("111", "2049"))
NFS_UDP = Service("nfs_udp", Protocol.UDP, ("111", "2049"))
SLURM = Service("slurm", Protocol.TCP, ("6817-6819",))

SEEDED_SERVICES: tuple[Service, ...] = (
    SSH,
    ICMP,
    DHCP,
    DNS_UDP,
    DNS_TCP,
    NFS_TCP,
    NFS_UDP,
    SLURM,
)

ROLE_LOGIN = "login"
ROLE_MANAGER = "manager"
ROLE_WORKER = "worker"

SITE_BASE_POLICY = "site_base"
SITE_DEFAULT_DENY_POLICY = "site_default_deny"
# The catch-all reject must come after every tenant policy of the application category.
DEFAULT_DENY_SEQUENCE = 1_000_000


def site_groups(nfs_servers: Iterable[str], dns_servers: Iterable[str]) -> tuple[Group, Group]:
    """Site-wide groups of public services that every tenant may reach."""
    return (
        Group("nfs_servers", Scope.SITE, cidrs=tuple(nfs_servers)),
        Group("dns_servers", Scope.SITE, cidrs=tuple(dns_servers)),
    )


def site_policies() -> tuple[Policy, Policy]:
    """Site-wide: allow ICMP and DHCP first, reject everything else last."""
    base = Policy(
        SITE_BASE_POLICY,
        Scope.SITE,
        Category.INFRASTRUCTURE,
        10,
        rules=(
            Rule("allow_icmp", 10, Action.ALLOW, services=(ICMP,)),
            Rule("allow_dhcp", 20, Action.ALLOW, services=(DHCP,)),
        ),
    )
    deny = Policy(
        SITE_DEFAULT_DENY_POLICY,
        Scope.SITE,
        Category.APPLICATION,
        DEFAULT_DENY_SEQUENCE,
        rules=(Rule("reject_all", 10, Action.REJECT, logged=True),),
    )
    return base, deny


def tenant_groups(
    tenant: str, cidrs: Iterable[str | Network], roles: Mapping[str, Iterable[str | Network]]
) -> dict[str, Group]:
    """The tenant's 'all' group plus one group per role (login/manager/worker)."""
    groups = {"all": Group("all", Scope.TENANT, tenant, tuple(cidrs))}
    for role in sorted(roles):
        groups[role] = Group(role, Scope.TENANT, tenant, tuple(roles[role]), tags=(role,))
    return groups


def tenant_isolation_policy(tenant: str, groups: Mapping[str, Group], nfs: Group, dns: Group) -> Policy:
    """Intra-tenant allow, SSH from anywhere to the login node only, tenant to NFS and DNS."""
    rules = [
        Rule("intra_tenant", 10, Action.ALLOW, (groups["all"],), (groups["all"],)),
        Rule("tenant_to_nfs", 30, Action.ALLOW, (groups["all"],), (nfs,), (NFS_TCP, NFS_UDP), Direction.OUT),
        Rule("tenant_to_dns", 40, Action.ALLOW, (groups["all"],), (dns,), (DNS_UDP, DNS_TCP), Direction.OUT),
    ]
    if ROLE_LOGIN in groups:
        rules.append(Rule("ssh_to_login", 20, Action.ALLOW, (), (groups[ROLE_LOGIN],), (SSH,), Direction.IN))
    return Policy(f"{tenant}_isolation", Scope.TENANT, Category.APPLICATION, 100, rules=tuple(rules), tenant=tenant)


def default_tenant(
    name: str,
    interface: str,
    cidrs: Iterable[str | Network],
    roles: Mapping[str, Iterable[str | Network]],
    nfs: Group,
    dns: Group,
    extra: Iterable[Policy] = (),
) -> Tenant:
    """A tenant carrying the default isolation policy, plus any custom policies."""
    cidrs = tuple(cidrs)
    groups = tenant_groups(name, cidrs, roles)
    policy = tenant_isolation_policy(name, groups, nfs, dns)
    return Tenant(name, interface, cidrs, (policy, *extra))
