"""The diff is a pure function: (actual, desired) -> ordered ops."""

from dataclasses import replace

from enclave_agent import nftables
from enclave_agent.plan import (
    SYSCTLS,
    ActualLink,
    Capabilities,
    KernelState,
    OpKind,
    expected_routes,
    plan,
    projected,
    tenant_links,
)
from enclave_agent.state import parse
from topo import desired

VRF = Capabilities(vrf=True, vxlan=True, nftables=True)
NO_VRF = Capabilities(vrf=False, vxlan=True, nftables=True, detail="vrf: Unknown device type")


def _state(tenants, **kw):
    return parse(desired("n1", 1, tenants, **kw))


def _converged(state):
    nft = nftables.transaction(state)
    actual = projected(KernelState(), state, VRF, nft[0], set())
    actual.addrs = {p.name: p.addrs for t in state.tenants for p in tenant_links(t, state.node.interfaces)}
    actual.routes = frozenset(r for t in state.tenants for r in expected_routes(t, state.node.interfaces))
    return actual, nft


def test_it_builds_everything_from_nothing_in_order():
    state = _state([70001, 70002])
    result = plan(KernelState(sysctls={}), state, VRF, nftables.transaction(state))
    kinds = [op.kind for op in result.ops]
    assert kinds == [OpKind.SYSCTL, OpKind.NFTABLES, OpKind.CREATE, OpKind.CREATE]
    first = result.ops[2].ip
    assert first[0].startswith("link add vrf70001 group 4242 type vrf table 16847217")
    assert first[-1].startswith("link set") and "alias" in first[-1]  # alias is written last


def test_it_computes_zero_ops_for_a_converged_node():
    state = _state([70001, 70002])
    actual, nft = _converged(state)
    assert plan(actual, state, VRF, nft).ops == []


def test_it_tears_down_a_removed_tenant_by_its_own_links_only():
    actual, _ = _converged(_state([70001, 70002]))
    smaller = _state([70001])
    result = plan(actual, smaller, VRF, nftables.transaction(smaller))
    deletes = [op for op in result.ops if op.kind == OpKind.DELETE]
    assert len(deletes) == 1 and deletes[0].tenant == 70002
    assert deletes[0].ip == ("route flush table 16847218", "link del eth0u70002", "link del vrf70002")


def test_it_replaces_only_the_changed_vxlan():
    state = _state([70001, 70002])
    actual, _ = _converged(state)
    raw = desired("n1", 1, [70001, 70002])
    raw["tenants"][1]["vxlans"][0]["dstport"] = 4790
    changed = parse(raw)
    ops = [
        op
        for op in plan(actual, changed, VRF, nftables.transaction(changed)).ops
        if op.kind in (OpKind.DELETE, OpKind.CREATE)
    ]
    assert [(op.kind, op.tenant) for op in ops] == [(OpKind.DELETE, 70002), (OpKind.CREATE, 70002)]
    assert ops[0].ip == ("link del eth0u70002",)
    assert not any("vrf70002 group" in line for line in ops[1].ip)


def test_it_rebuilds_a_half_built_tenant():
    state = _state([70001])
    actual, nft = _converged(state)
    link = actual.links["eth0u70001"]
    actual.links["eth0u70001"] = replace(link, tenant=None, digest=None)  # killed before alias
    ops = plan(actual, state, VRF, nft).ops
    assert [op.kind for op in ops] == [OpKind.DELETE, OpKind.CREATE]


def test_it_rebuilds_a_tenant_whose_address_drifted_on_a_full_read():
    state = _state([70001])
    actual, nft = _converged(state)
    actual.addrs["vrf70001"] = frozenset({"100.65.17.114/32 host"})  # the paper's scope host
    assert [op.kind for op in plan(actual, state, VRF, nft).ops] == [OpKind.DELETE, OpKind.CREATE]


def test_it_refuses_to_build_tenants_without_vrf_and_says_why():
    state = _state([70001])
    result = plan(KernelState(sysctls=dict(SYSCTLS)), state, NO_VRF, ("x", "nft"))
    assert [op.kind for op in result.ops] == [OpKind.NFTABLES]
    assert "CONFIG_NET_VRF" in result.blocked[70001]


def test_it_never_names_a_device_it_does_not_own_or_want():
    state = _state([70001])
    actual = KernelState(links={"stale0": ActualLink("stale0", "vxlan", 5, "d", True)}, sysctls=dict(SYSCTLS))
    result = plan(actual, state, VRF, nftables.transaction(state))
    named = {line.split()[2] for op in result.ops for line in op.ip if line.startswith("link ")}
    assert named <= {"stale0", "vrf70001", "eth0u70001"}


def test_it_moves_the_local_rule_below_l3mdev_once():
    state = _state([])
    before = KernelState(sysctls=dict(SYSCTLS), local_rule_pref0=(True, True), local_rule_moved=(False, False))
    rules = [op for op in plan(before, state, VRF, ("d", "t")).ops if op.kind == OpKind.RULES]
    assert rules[0].ip == ("rule add pref 32765 table local", "rule del pref 0 table local")
