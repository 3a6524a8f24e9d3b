"""What-if against the default isolation policy, and shadowed/redundant/exposing rules."""

import pytest

from netpolicy.compiler import analysis, defaults
from netpolicy.compiler.analysis import FindingKind
from netpolicy.compiler.model import (
    Action,
    Category,
    Direction,
    Group,
    Policy,
    PolicyError,
    Rule,
    Scope,
)
from tests.netpolicy.builders import DNS_IP, NFS_IP, WEB, make_site, make_tenant

OUTSIDE = "192.0.2.7"
ACME_LOGIN, ACME_MANAGER, ACME_WORKER = "10.1.0.10", "10.1.0.11", "10.1.0.40"
BETA_WORKER = "10.2.0.40"


def decide(site, src, dst, proto, port=None):
    result = analysis.what_if(site, src, dst, proto, port)
    return result.action, result.rule


def test_outside_users_reach_the_login_node_over_ssh(default_site):
    assert decide(default_site, OUTSIDE, ACME_LOGIN, "tcp", 22) == (Action.ALLOW, "ssh_to_login")


def test_outside_users_reach_the_login_node_over_ipv6_ssh(default_site):
    assert decide(default_site, "2001:db8::7", "fd00:1::10", "tcp", 22)[0] is Action.ALLOW


def test_outside_users_cannot_reach_the_login_node_on_other_ports(default_site):
    assert decide(default_site, OUTSIDE, ACME_LOGIN, "tcp", 80) == (Action.REJECT, "reject_all")


@pytest.mark.parametrize("node", [ACME_MANAGER, ACME_WORKER])
def test_manager_and_workers_are_never_reachable_from_outside(default_site, node):
    assert decide(default_site, OUTSIDE, node, "tcp", 22) == (Action.REJECT, "reject_all")
    assert decide(default_site, OUTSIDE, node, "tcp", 6817)[0] is Action.REJECT


def test_nodes_of_one_tenant_talk_to_each_other_on_any_port(default_site):
    assert decide(default_site, ACME_WORKER, ACME_MANAGER, "tcp", 6817) == (Action.ALLOW, "intra_tenant")
    assert decide(default_site, ACME_MANAGER, ACME_WORKER, "udp", 5000)[0] is Action.ALLOW


def test_another_tenant_cannot_reach_a_tenants_nodes(default_site):
    result = analysis.what_if(default_site, BETA_WORKER, ACME_WORKER, "tcp", 6817)
    assert (result.action, result.rule) == (Action.REJECT, "reject_all")
    assert result.where == "egress from tenant beta"


def test_tenants_reach_nfs_and_dns(default_site):
    assert decide(default_site, ACME_WORKER, NFS_IP, "tcp", 2049) == (Action.ALLOW, "tenant_to_nfs")
    assert decide(default_site, ACME_WORKER, DNS_IP, "udp", 53) == (Action.ALLOW, "tenant_to_dns")


def test_tenants_cannot_reach_other_public_hosts(default_site):
    assert decide(default_site, ACME_WORKER, "8.8.8.8", "udp", 53)[0] is Action.REJECT
    assert decide(default_site, ACME_WORKER, NFS_IP, "tcp", 22)[0] is Action.REJECT


def test_icmp_and_dhcp_are_allowed_site_wide(default_site):
    assert decide(default_site, BETA_WORKER, ACME_WORKER, "icmp") == (Action.ALLOW, "allow_icmp")
    assert decide(default_site, "0.0.0.0", "255.255.255.255", "udp", 67) == (  # noqa: S104
        Action.ALLOW,
        "allow_dhcp",
    )


def test_what_if_refuses_malformed_queries(default_site):
    with pytest.raises(PolicyError, match="does not appear to be an IPv4 or IPv6"):
        analysis.what_if(default_site, "10.1.0.300", ACME_LOGIN, "tcp", 22)
    with pytest.raises(PolicyError, match="same IP version"):
        analysis.what_if(default_site, "fd00::1", ACME_LOGIN, "tcp", 22)
    with pytest.raises(PolicyError, match="tcp needs a port"):
        analysis.what_if(default_site, OUTSIDE, ACME_LOGIN, "tcp", 0)
    with pytest.raises(PolicyError, match="protocol must be tcp, udp or icmp"):
        analysis.what_if(default_site, OUTSIDE, ACME_LOGIN, "any")


def test_the_default_policy_has_no_findings(default_site):
    assert analysis.analyse(default_site) == []


def _acme_with(*rules, category=Category.ENVIRONMENT):
    policy = Policy("acme_custom", Scope.TENANT, category, 50, rules, "acme")
    return make_site([make_tenant("acme", 1, (policy,)), make_tenant("beta", 2)])


def _group(name, *cidrs, tenant="acme"):
    return Group(name, Scope.TENANT, tenant, cidrs)


def test_a_rule_after_a_broader_rule_with_another_action_is_shadowed():
    site = _acme_with(
        Rule("drop_net", 10, Action.DROP, (_group("net", "198.51.100.0/24"),)),
        Rule("allow_host", 20, Action.ALLOW, (_group("host", "198.51.100.7/32"),), (), (WEB,)),
    )
    [finding] = analysis.analyse_tenant(site, "acme")
    assert (finding.kind, finding.rule, finding.by_rule) == (FindingKind.SHADOWED, "allow_host", "drop_net")


def test_a_rule_covered_by_an_earlier_rule_with_the_same_action_is_redundant():
    wide = _group("wide", "198.51.100.0/25", "198.51.100.128/25")
    site = _acme_with(
        Rule("allow_wide", 10, Action.ALLOW, (wide,), (), (WEB, defaults.SSH)),
        Rule("allow_ssh", 20, Action.ALLOW, (_group("host", "198.51.100.200/32"),), (), (defaults.SSH,), Direction.IN),
    )
    [finding] = analysis.analyse_tenant(site, "acme")
    assert (finding.kind, finding.rule) == (FindingKind.REDUNDANT, "allow_ssh")


def test_a_partially_overlapping_rule_is_not_flagged():
    site = _acme_with(
        Rule("drop_half", 10, Action.DROP, (_group("half", "198.51.100.0/25"),)),
        Rule("allow_all", 20, Action.ALLOW, (_group("net", "198.51.100.0/24"),)),
    )
    assert analysis.analyse_tenant(site, "acme") == []


def test_a_rule_only_covered_in_one_direction_is_not_flagged():
    site = _acme_with(
        Rule("drop_in", 10, Action.DROP, (_group("net", "198.51.100.0/24"),), direction=Direction.IN),
        Rule("allow_web", 20, Action.ALLOW, (_group("net", "198.51.100.0/24"),), (), (WEB,)),
    )
    assert analysis.analyse_tenant(site, "acme") == []


def test_a_tenant_rule_after_the_site_catch_all_is_shadowed():
    late = Policy(
        "acme_late",
        Scope.TENANT,
        Category.APPLICATION,
        2_000_000,
        (Rule("too_late", 1, Action.ALLOW, services=(WEB,)),),
        "acme",
    )
    site = make_site([make_tenant("acme", 1, (late,))])
    [finding] = analysis.analyse_tenant(site, "acme")
    assert (finding.kind, finding.by_policy, finding.by_rule) == (
        FindingKind.SHADOWED,
        defaults.SITE_DEFAULT_DENY_POLICY,
        "reject_all",
    )


def test_a_rule_letting_another_tenants_addresses_in_is_flagged():
    site = _acme_with(
        Rule(
            "beta_in",
            10,
            Action.ALLOW,
            (_group("beta_net", "10.2.0.0/16"),),
            (_group("all", "10.1.0.0/24", "fd00:1::/64"),),
        )
    )
    [finding] = analysis.analyse_tenant(site, "acme")
    assert finding.kind is FindingKind.EXPOSES
    assert finding.message == "rule acme_custom/beta_in exposes tenant acme to beta"


def test_a_rule_open_to_any_source_on_any_port_is_flagged():
    site = _acme_with(Rule("open", 10, Action.ALLOW))
    findings = analysis.analyse_tenant(site, "acme")
    exposing = [f.message for f in findings if f.kind is FindingKind.EXPOSES]
    assert exposing == ["rule acme_custom/open exposes tenant acme to every tenant on every port"]
    # It also makes every rule of the default policy redundant.
    redundant = {f.rule for f in findings if f.kind is FindingKind.REDUNDANT}
    assert redundant == {"intra_tenant", "ssh_to_login", "tenant_to_nfs", "tenant_to_dns"}


def test_a_site_rule_opening_everything_exposes_every_tenant():
    open_all = Policy("site_open", Scope.SITE, Category.EMERGENCY, 1, (Rule("allow_all", 1, Action.ALLOW),))
    site = make_site([make_tenant("acme", 1), make_tenant("beta", 2)], [open_all])
    exposed = [f.message for f in analysis.analyse(site) if f.kind is FindingKind.EXPOSES]
    assert len(exposed) == 2


def test_rules_to_site_groups_without_addresses_say_so_instead_of_redundant():
    from netpolicy.compiler import analysis, defaults
    from netpolicy.compiler.model import Site

    nfs, dns = defaults.site_groups([], [])  # a fresh site: NFS and DNS servers not entered yet
    tenant = defaults.default_tenant("t1", "vrf1", ["10.1.0.0/24"], {defaults.ROLE_LOGIN: ["10.1.0.10/32"]},
                                     nfs, dns)  # fmt: skip
    site = Site(defaults.site_policies(), (tenant,), (), (nfs, dns))
    kinds = {f.rule: (f.kind, f.message) for f in analysis.analyse_tenant(site, "t1")}
    nfs_rule = next(r for r in kinds if "nfs" in r)
    assert kinds[nfs_rule][0] == analysis.FindingKind.EMPTY and "nfs_servers" in kinds[nfs_rule][1]
    assert all(kind != analysis.FindingKind.REDUNDANT for kind, _ in kinds.values())
