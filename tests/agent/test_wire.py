"""The wire format's schema 2: VXLAN underlays sent once per node, devices derived per tenant."""

import gzip

import pytest
from enclave_agent import wire
from enclave_agent.state import StateError, parse

UNDERLAY = {"underlay": "enp129s0f1np1", "dstport": 4790, "address": "10.10.0.5/24", "group": "239.1.1.1", "ttl": 5}


def document(schema=2, tenants=None):
    return {"schema": schema, "generation": 3,
            "node": {"name": "n1", "address": "10.10.0.5", "interfaces": [], "vxlans": [UNDERLAY]},
            "tenants": tenants if tenants is not None else [
                {"id": 7, "vrf": {"name": "vrf7", "table": wire.TABLE_BASE + 7}, "vni": 5001,
                 "cgnat": "100.64.0.8/32", "uids": [20001]}],
            "nftables": ""}  # fmt: skip


def test_schema_2_gives_every_tenant_a_vxlan_on_each_underlay():
    (tenant,) = parse(document()).tenants
    (vxlan,) = tenant.vxlans
    assert vxlan.device == wire.vxlan_name("enp129s0f1np1", 7) and vxlan.underlay == "enp129s0f1np1"
    assert (vxlan.dstport, vxlan.address, vxlan.group, vxlan.ttl) == (4790, "10.10.0.5/24", "239.1.1.1", 5)


def test_schema_1_documents_still_parse():
    old = document(schema=1)
    del old["schema"]
    old["tenants"][0]["vxlans"] = [{"device": "em1u7", **UNDERLAY}]
    assert parse(old).tenants[0].vxlans[0].device == "em1u7"


@pytest.mark.parametrize("schema", [3, 0, "2", True])
def test_an_unknown_schema_is_refused_whole(schema):
    with pytest.raises(StateError, match="schema"):
        parse(document(schema=schema))


def test_a_long_interface_name_is_shortened_as_before():
    assert wire.vxlan_name("em1", 7) == "em1u7"
    long = wire.vxlan_name("enp129s0f1np1", 123456)
    assert len(long) <= wire.IFNAMSIZ and long.startswith("enp129s")


def test_gzip_members_written_one_after_another_decode_as_one_document():
    assert wire.gunzip(gzip.compress(b'{"a":', mtime=0) + gzip.compress(b"1}", mtime=0)) == b'{"a":1}'


def test_a_gzip_bomb_is_refused_at_the_limit_not_decoded_whole():
    bomb = gzip.compress(b"\0" * 2_000_000, mtime=0)
    assert len(wire.gunzip(bomb, limit=2_000_000)) == 2_000_000
    with pytest.raises(ValueError, match="larger than 1000000 bytes"):
        wire.gunzip(bomb, limit=1_000_000)
    with pytest.raises(ValueError, match="larger"):  # the limit counts every member together
        wire.gunzip(gzip.compress(b"\0" * 600_000, mtime=0) * 2, limit=1_000_000)


@pytest.mark.parametrize(
    "data", [b"not gzip", gzip.compress(b"x" * 1000, mtime=0)[:-9], gzip.compress(b"x", mtime=0) + b"junk"]
)
def test_a_stream_that_is_not_whole_gzip_is_refused(data):
    with pytest.raises(ValueError, match="gzip"):
        wire.gunzip(data)
