"""Desired-state parsing rejects what would be unsafe to apply."""

import pytest
from enclave_agent.state import IFNAMSIZ, StateError, cgnat_for, parse, table_for, vxlan_name
from topo import desired


def test_it_gives_distinct_tables_above_65536():
    assert len({table_for(i) for i in (1, 6553, 65536, 65537, 655360)}) == 5
    assert table_for(16_777_215) < 2**32


def test_it_keeps_vxlan_names_within_ifnamsiz():
    assert vxlan_name("em1", 1234) == "em1u1234"
    long = vxlan_name("enp129s0f1np1", 16_000_000)
    assert len(long) <= IFNAMSIZ and long != vxlan_name("enp129s0f1np1", 16_000_001)


def test_it_derives_cgnat_addresses_inside_100_64_0_0_10():
    assert cgnat_for(0) == "100.64.0.1/32"
    with pytest.raises(StateError):
        cgnat_for(2**22)


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d["tenants"][1].update(cgnat="10.0.0.1/32"),
        lambda d: d["tenants"][1]["vrf"].update(table=254),
        lambda d: d["tenants"][1]["vxlans"][0].update(group="10.0.0.9"),
    ],
)
def test_it_sets_aside_an_unsafe_tenant(mutate):
    doc = desired("n1", 1, [70001, 70002], uids={70001: [5], 70002: [6]})
    mutate(doc)
    state = parse(doc)
    assert [t.id for t in state.tenants] == [70001] and state.invalid[0][0] == 70002


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d["tenants"][1].update(uids=d["tenants"][0]["uids"]),
        lambda d: d["tenants"][1]["vrf"].update(table=d["tenants"][0]["vrf"]["table"]),
        lambda d: d.pop("node"),
    ],
)
def test_it_rejects_documents_that_conflict_across_tenants(mutate):
    doc = desired("n1", 1, [70001, 70002], uids={70001: [5], 70002: [6]})
    mutate(doc)
    with pytest.raises(StateError):
        parse(doc)


def test_it_round_trips_through_json():
    from enclave_agent.state import loads

    state = parse(desired("n1", 1, [70001], uids={70001: [5]}))
    assert loads(state.to_json()) == state


def test_one_invalid_tenant_entry_is_set_aside_not_fatal():
    doc = desired("n1", 1, [70001, 70002])
    doc["tenants"][1]["vxlans"][0]["group"] = None  # neither group nor peers
    state = parse(doc)
    assert [t.id for t in state.tenants] == [70001]
    assert state.invalid[0][0] == 70002 and "group or peers" in state.invalid[0][1]


@pytest.mark.parametrize("mutate", [
    lambda d: d["node"]["interfaces"][0].update(name="eth0\nlink del lo"),
    lambda d: d["node"]["interfaces"][0].update(address="10.77.0.1/24\nlink del lo"),
    lambda d: d["node"]["interfaces"][0].update(gateway="10.77.0.254 dev lo"),
    lambda d: d["node"]["interfaces"][0].update(address="2001:db8::%a b\nzz/128"),
    lambda d: d["node"].update(name="../../etc"),
    lambda d: d["tenants"][1]["vrf"].update(name="a-very-long-vrf-name"),
    lambda d: d["tenants"][1]["vxlans"][0].update(device="x\nlink del lo"),
    lambda d: d["tenants"][1]["vxlans"][0].update(group="239.1.1.77\nlink del lo"),
    lambda d: d["tenants"][1]["vxlans"][0].update(address="10.77.0.1/24 dev lo"),
    lambda d: d["tenants"][1].update(cgnat="100.65.0.1/32\nlink del lo"),
    lambda d: d["tenants"][1].update(uids=[0]),
    lambda d: d["tenants"][1].update(vni="7\n"),
    lambda d: d.update(nftables='table inet enclave {\n include "/etc/shadow"\n}\n'),
    lambda d: d.update(nftables="flush ruleset\n"),
])  # fmt: skip
def test_a_document_failing_the_grammar_is_refused_whole(mutate):
    doc = desired("n1", 1, [70001, 70002], uids={70001: [5], 70002: [6]})
    mutate(doc)
    with pytest.raises(StateError, match="refused"):
        parse(doc)
