"""The VDS traffic-filter compiler against the IR: every default rule, replies, ports, IPv4/IPv6, refusals."""

import pytest

from netpolicy.compiler import defaults
from netpolicy.compiler.model import Action, Category, Direction, Group, Policy, Protocol, Rule, Scope, Service
from netpolicy.compiler.vds import (
    BOTH,
    INCOMING,
    MAX_PORTS_PER_RANGE,
    OUTGOING,
    NoteKind,
    VdsError,
    VdsRule,
    compile_tenant,
    decide,
    notes,
    ruleset_digest,
)
from tests.netpolicy.builders import DNS_IP, NFS_IP, make_site, make_tenant

LOGIN4, LOGIN6 = "10.1.0.10/32", "fd00:1::10/128"
ALL4, ALL6 = "10.1.0.0/24", "fd00:1::/64"


def rules_of(site, tenant="acme"):
    return compile_tenant(site, tenant)


def matching(rules, **fields):
    """The compiled rules whose fields have these values (sequence ignored)."""
    return [r for r in rules if all(getattr(r, k) == v for k, v in fields.items())]


def test_every_rule_of_the_default_policy_compiles_to_its_vds_rules(default_site):
    rules = rules_of(default_site)
    # replies come first, as nft's `ct state established` does
    first_forward = min(r.sequence for r in rules if not r.description.endswith(" reply"))
    assert all(r.sequence < first_forward for r in rules if r.description.endswith(" reply"))
    # site base policy: ICMP both ways (IPv4 and IPv6), DHCP on its two ports
    assert {r.protocol for r in matching(rules, description="enclave site_base/allow_icmp")} == {1, 58}
    dhcp = matching(rules, description="enclave site_base/allow_dhcp", direction=BOTH, protocol=17)
    assert sorted(r.destination_port for r in dhcp) == [67, 68]
    # intra-tenant: every address of the tenant to every other, per family, both directions
    intra = matching(rules, description="enclave acme_isolation/intra_tenant", action="accept", direction=BOTH)
    assert {(r.source, r.destination) for r in intra} == {(ALL4, ALL4), (ALL6, ALL6)}
    # SSH from anywhere to the login node only, delivered to the VM (the port's outgoing packets)
    ssh = matching(rules, description="enclave acme_isolation/ssh_to_login", direction=OUTGOING)
    assert {(r.source, r.destination, r.protocol, r.destination_port) for r in ssh} == {
        (None, LOGIN4, 6, 22), (None, LOGIN6, 6, 22)}  # fmt: skip
    # ... and its replies: from the login node, source port 22, sent by the VM
    replies = matching(rules, description="enclave acme_isolation/ssh_to_login reply")
    assert {(r.direction, r.source, r.destination, r.source_port) for r in replies} == {
        (INCOMING, LOGIN4, None, 22), (INCOMING, LOGIN6, None, 22)}  # fmt: skip
    # NFS and DNS out of the tenant (sent by VMs), with replies back on the service ports
    nfs = matching(rules, description="enclave acme_isolation/tenant_to_nfs", direction=INCOMING)
    assert {(r.destination, r.protocol, r.destination_port) for r in nfs} >= {
        (f"{NFS_IP}/32", 6, 2049), (f"{NFS_IP}/32", 17, 111), ("fd00:ff::10/128", 6, 2049)}  # fmt: skip
    nfs_back = matching(rules, description="enclave acme_isolation/tenant_to_nfs reply", source_port=2049)
    assert {(r.direction, r.source, r.destination) for r in nfs_back if r.protocol == 6} == {
        (OUTGOING, f"{NFS_IP}/32", ALL4), (OUTGOING, "fd00:ff::10/128", ALL6)}  # fmt: skip
    dns = matching(rules, description="enclave acme_isolation/tenant_to_dns", destination=f"{DNS_IP}/32")
    assert {(r.protocol, r.destination_port) for r in dns} == {(17, 53), (6, 53)}
    # the catch-all reject is a drop of everything, last
    (deny,) = matching(rules, description="enclave site_default_deny/reject_all")
    assert (deny.action, deny.direction, deny.protocol, deny.source, deny.destination) == (
        "drop",
        BOTH,
        None,
        None,
        None,
    )
    assert deny == rules[-1]


def test_a_port_range_becomes_one_rule_per_port_and_families_never_mix(custom_site):
    rules = rules_of(custom_site)
    slurm = matching(rules, description="enclave acme_custom/slurm", direction=BOTH)
    assert sorted(r.destination_port for r in slurm) == [6817, 6818, 6819]
    assert all(r.source == "10.1.0.32/27" and r.destination == "10.1.0.11/32" for r in slurm)
    web = matching(rules, description="enclave acme_custom/partner_web")
    assert {(r.source, r.destination_port) for r in web} == {
        ("198.51.100.0/24", 8080), ("198.51.100.0/24", 8443), ("198.51.100.0/24", 8444)}  # fmt: skip
    # partner's IPv6 network pairs with no worker address of the same family: no rule for it
    assert not matching(rules, source="2001:db8::/48", description="enclave acme_custom/partner_web")
    drop = matching(rules, description="enclave acme_custom/block_udp")
    assert {(r.action, r.direction, r.protocol, r.destination_port) for r in drop} == {("drop", OUTGOING, 17, 53)}
    assert not matching(rules, description="enclave acme_custom/disabled")


def _tenant_with(rule):
    return make_site([make_tenant("acme", 1, (Policy("acme_x", Scope.TENANT, Category.APPLICATION, 60,
                                                     (rule,), "acme"),))])  # fmt: skip


ALL_ACME = Group("all", Scope.TENANT, "acme", (ALL4, ALL6))
PARTNER = Group("partner", Scope.TENANT, "acme", ("198.51.100.0/24",))


def test_an_allow_of_every_protocol_one_way_is_refused_naming_the_rule():
    site = _tenant_with(Rule("partner_all", 10, Action.ALLOW, (PARTNER,), (ALL_ACME,), (), Direction.IN))
    with pytest.raises(VdsError, match=r"rule acme_x/partner_all allows every protocol one way"):
        compile_tenant(site, "acme")
    found = notes(site, site.tenant("acme"))
    assert [(n.kind, n.rule) for n in found] == [(NoteKind.REFUSED, "partner_all")]


def test_every_protocol_both_ways_between_the_same_group_is_expressible():
    site = _tenant_with(Rule("mesh", 10, Action.ALLOW, (ALL_ACME,), (ALL_ACME,), (), Direction.IN_OUT))
    assert matching(compile_tenant(site, "acme"), description="enclave acme_x/mesh", protocol=None)


def test_a_port_range_too_wide_for_single_port_rules_is_refused():
    wide = Service("high", Protocol.TCP, (f"1024-{1024 + MAX_PORTS_PER_RANGE}",))
    site = _tenant_with(Rule("high_in", 10, Action.ALLOW, (PARTNER,), (ALL_ACME,), (wide,), Direction.IN))
    with pytest.raises(VdsError, match=r"port range 1024-1088 of service high, which would take 65 vSphere filter"):
        compile_tenant(site, "acme")


def test_reject_and_logging_are_noted_not_hidden(custom_site):
    tenant_notes = {(n.rule, n.kind) for n in notes(custom_site, custom_site.tenant("acme"))}
    assert ("partner_web", NoteKind.APPROXIMATE) in tenant_notes  # logged
    site_notes = [n.message for n in notes(custom_site, None)]
    assert any("is enforced as drop on vSphere" in m for m in site_notes)
    assert any("is not logged on vSphere" in m for m in site_notes)


def test_ipv6_icmp_is_protocol_58_and_ipv4_icmp_protocol_1():
    ping = Rule("ping_login", 10, Action.ALLOW, (PARTNER,), (Group("login", Scope.TENANT, "acme",
                (LOGIN4, LOGIN6), ("login",)),), (defaults.ICMP,), Direction.IN)  # fmt: skip
    rules = compile_tenant(_tenant_with(ping), "acme")
    forward = matching(rules, description="enclave acme_x/ping_login")
    assert {(r.destination, r.protocol) for r in forward} == {(LOGIN4, 1)}  # the partner is IPv4 only
    ping6 = Rule("ping6", 10, Action.ALLOW, (), (Group("login6", Scope.TENANT, "acme", (LOGIN6,)),),
                 (defaults.ICMP,), Direction.IN)  # fmt: skip
    rules6 = compile_tenant(_tenant_with(ping6), "acme")
    assert {r.protocol for r in matching(rules6, description="enclave acme_x/ping6")} == {58}


def test_the_compile_is_deterministic_and_sequenced(default_site):
    first, second = rules_of(default_site), rules_of(make_site([make_tenant("acme", 1), make_tenant("beta", 2)]))
    assert first == second and ruleset_digest(first) == ruleset_digest(second)
    assert [r.sequence for r in first] == sorted({r.sequence for r in first})
    assert all(isinstance(r, VdsRule) for r in first)


def test_a_packet_meets_the_same_verdict_as_the_stateful_path(default_site):
    rules = rules_of(default_site)
    assert decide(rules, "192.0.2.7", "10.1.0.10", 6, 22, OUTGOING).action == "accept"
    assert decide(rules, "192.0.2.7", "10.1.0.10", 6, 8080, OUTGOING).action == "drop"
    assert decide(rules, "10.1.0.5", "10.1.0.11", 6, 9999, INCOMING).action == "accept"
    assert decide(rules, "10.1.0.5", "192.0.2.7", 6, 443, INCOMING).action == "drop"
