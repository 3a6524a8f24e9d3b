"""Bad input to the policy IR fails with a clear message naming the offending object."""

import pytest

from netpolicy.compiler import defaults
from netpolicy.compiler.model import (
    Action,
    Category,
    Group,
    Policy,
    PolicyError,
    PortRange,
    Protocol,
    Rule,
    Scope,
    Service,
    Site,
    Tenant,
)
from tests.netpolicy.builders import make_site, make_tenant


@pytest.mark.parametrize("port", [0, 70000, -1])
def test_it_rejects_ports_outside_1_to_65535(port):
    with pytest.raises(PolicyError, match=f"port {port} is out of range"):
        Service("bad", Protocol.TCP, (port,))


def test_it_rejects_an_inverted_port_range():
    with pytest.raises(PolicyError, match="6819-6817 is inverted"):
        Service("bad", Protocol.TCP, ("6819-6817",))


def test_it_rejects_a_non_numeric_port():
    with pytest.raises(PolicyError, match="'ssh' is not a number"):
        PortRange.parse("ssh")


def test_it_rejects_ports_on_icmp():
    with pytest.raises(PolicyError, match="ports only apply to tcp and udp"):
        Service("bad", Protocol.ICMP, ("8",))


@pytest.mark.parametrize("cidr", ["10.0.0.0/33", "10.0.0.1/24", "fd00::1/64", "10.0.0"])
def test_it_rejects_bad_networks_and_host_bits(cidr):
    with pytest.raises(PolicyError, match=f"group g: invalid network '{cidr}'"):
        Group("g", Scope.SITE, cidrs=(cidr,))


def test_it_rejects_a_sequence_collision_within_a_policy():
    rules = (Rule("a", 10, Action.ALLOW), Rule("b", 10, Action.DROP))
    with pytest.raises(PolicyError, match="policy p: sequence number 10 is used twice"):
        Policy("p", Scope.SITE, Category.APPLICATION, 1, rules)


def test_it_rejects_a_duplicate_rule_id_within_a_policy():
    rules = (Rule("a", 10, Action.ALLOW), Rule("a", 20, Action.DROP))
    with pytest.raises(PolicyError, match="rule id a is used twice"):
        Policy("p", Scope.SITE, Category.APPLICATION, 1, rules)


def test_it_rejects_a_rule_naming_a_group_of_another_tenant():
    foreign = Group("all", Scope.TENANT, "beta", ("10.2.0.0/24",))
    rule = Rule("sneak", 10, Action.ALLOW, (foreign,))
    with pytest.raises(PolicyError, match="group beta.all belongs to another tenant"):
        Policy("acme_p", Scope.TENANT, Category.APPLICATION, 1, (rule,), tenant="acme")


def test_it_rejects_a_site_rule_naming_a_tenant_group():
    group = Group("all", Scope.TENANT, "beta", ("10.2.0.0/24",))
    with pytest.raises(PolicyError, match="belongs to another tenant"):
        Policy("p", Scope.SITE, Category.APPLICATION, 1, (Rule("r", 1, Action.ALLOW, (group,)),))


@pytest.mark.parametrize("name", ["Acme", "a-b", "a__b", "1abc", "", "x" * 41, "trailing_"])
def test_it_rejects_names_that_cannot_be_nft_identifiers(name):
    with pytest.raises(PolicyError, match="name .* is invalid"):
        Service(name, Protocol.TCP)


def test_it_rejects_an_interface_name_longer_than_15_chars():
    with pytest.raises(PolicyError, match="not a valid Linux interface name"):
        Tenant("acme", "vrf0123456789abcdef", ("10.1.0.0/24",))


def test_it_rejects_an_unknown_enum_value():
    with pytest.raises(ValueError, match="'permit' is not a valid Action"):
        Rule("r", 1, "permit")


def test_it_rejects_two_tenants_on_one_interface():
    one, two = make_tenant("acme", 1), make_tenant("beta", 2)
    clash = Tenant("beta", one.interface, two.cidrs, two.policies)
    with pytest.raises(PolicyError, match="tenant interface vrf1001 is used twice"):
        make_site([one, clash])


def test_it_rejects_two_definitions_of_one_service_name():
    other_ssh = Service("ssh", Protocol.TCP, ("2222",))
    policy = Policy("extra", Scope.SITE, Category.EMERGENCY, 1, (Rule("r", 1, Action.ALLOW, services=(other_ssh,)),))
    with pytest.raises(PolicyError, match="service ssh has two different definitions"):
        make_site([make_tenant("acme", 1)], [policy])


def test_it_rejects_two_definitions_of_one_tenant_group():
    other = Group("login", Scope.TENANT, "acme", ("10.1.0.99/32",))
    policy = Policy(
        "acme_x", Scope.TENANT, Category.APPLICATION, 5, (Rule("r", 1, Action.ALLOW, destinations=(other,)),), "acme"
    )
    with pytest.raises(PolicyError, match="tenant acme group login has two different"):
        make_tenant("acme", 1, (policy,))


def test_it_rejects_a_tenant_policy_at_site_level():
    policy = make_tenant("acme", 1).policies[0]
    with pytest.raises(PolicyError, match="policy acme_isolation is tenant-scoped"):
        Site((policy,))


def test_it_orders_policies_by_category_then_sequence():
    site = make_site([make_tenant("acme", 1)])
    order = [p.id for p, _ in site.rules_for(site.tenant("acme"))]
    assert order[0] == defaults.SITE_BASE_POLICY
    assert order[-1] == defaults.SITE_DEFAULT_DENY_POLICY
    assert "acme_isolation" in order
