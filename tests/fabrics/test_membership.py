"""Membership from intent, and the judgement of a fabric's report: pure functions, no database."""

import pytest
from enclave_agent import fabric_wire as wire

from fabrics.membership import Claim, digest, document, judge, membership, parse_ports, port_in_partition

A1, A2, B1, NODE, STORE = (f"0x0002c90300a0{n:04x}" for n in (1, 2, 3, 4, 5))


def test_each_tenants_ports_are_full_members_of_its_own_partition_only():
    found = membership([Claim(1, A1, "vf"), Claim(1, A2, "vf"), Claim(2, B1, "vf")], [STORE])
    doc = document("ib0", "opensm", 3, {1: 0x12, 2: 0x13}, found)
    assert doc["partitions"] == [{"pkey": "0x0012", "ipoib": True, "mtu": 4, "full": [A1, A2]},
                                 {"pkey": "0x0013", "ipoib": True, "mtu": 4, "full": [B1]}]  # fmt: skip
    assert doc["shared"] == {"full": [STORE]} and wire.parse_desired(doc) == doc


def test_a_port_two_tenants_claim_joins_neither_partition_and_is_reported():
    found = membership([Claim(1, NODE, "node n1"), Claim(2, NODE, "node n1"), Claim(1, A1, "vf")], [])
    assert found.members == {1: [A1]} and found.conflicts == {NODE: [1, 2]}


def test_a_shared_storage_port_is_never_a_tenants_member():
    found = membership([Claim(1, STORE, "node")], [STORE])
    assert found.members == {} and found.shared == [STORE]


def test_a_claimed_guid_outside_the_grammar_never_reaches_the_document():
    with pytest.raises(wire.FabricError):
        membership([Claim(1, "0x1\nall=ALL,ALL=full", "vf")], [])


def test_the_digest_ignores_the_generation_but_not_the_members():
    found = membership([Claim(1, A1, "vf")], [])
    one, two = document("ib0", "opensm", 1, {1: 0x12}, found), document("ib0", "opensm", 9, {1: 0x12}, found)
    other = document("ib0", "opensm", 1, {1: 0x12}, membership([Claim(1, A2, "vf")], []))
    assert digest(one) == digest(two) != digest(other)


def _doc():
    return document("ib0", "opensm", 1, {1: 0x12, 2: 0x13}, membership([Claim(1, A1, ""), Claim(2, B1, "")], []))


def test_a_partition_is_realized_when_every_member_holds_its_key_as_a_full_member():
    verdicts = judge(_doc(), {A1: [0x8012, 0x7FFF], B1: [0x8013, 0x7FFF]})
    assert verdicts["0x0012"].realized and verdicts["0x0013"].realized


def test_a_member_not_programmed_yet_is_pending_and_one_that_lost_its_key_is_drift():
    pending = judge(_doc(), {A1: [0x7FFF], B1: [0x8013]})
    lost = judge(_doc(), {A1: [0x7FFF], B1: [0x8013]}, previous={A1: [0x8012]})
    assert not pending["0x0012"].realized and not pending["0x0012"].drift
    assert lost["0x0012"].drift and "not a full member of 0x0012" in lost["0x0012"].problems[0]


def test_a_port_holding_another_tenants_key_or_the_default_as_full_member_is_drift():
    verdicts = judge(_doc(), {A1: [0x8012, 0x8013], B1: [0x8013, 0xFFFF]})
    assert verdicts["0x0012"].drift and "another tenant's partition" in verdicts["0x0012"].problems[0]
    assert verdicts["0x0013"].drift and "default partition" in verdicts["0x0013"].problems[0]
    assert not port_in_partition({B1: [0x8013, 0xFFFF]}, B1, 0x13)
    assert port_in_partition({B1: [0x8013, 0x7FFF]}, B1, 0x13)


@pytest.mark.parametrize("ports", [
    {A1.upper(): []}, {"0x0000000000000000": []}, {A1: ["0x8012 "]}, {A1: ["8012"]}, {A1: "0x8012"},
    {A1: ["0x8012"] * 513}, [A1],
])  # fmt: skip
def test_a_report_outside_the_grammar_is_refused_whole(ports):
    with pytest.raises(wire.FabricError):
        parse_ports(ports)
