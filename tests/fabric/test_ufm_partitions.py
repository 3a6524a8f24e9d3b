"""Partitions through the UFM realizer, against a strict UFM stand-in that drives the fabric's real OpenSM."""

import json
import urllib.request

import pytest
from enclave_agent.fabric.agent import FabricAgent
from enclave_agent.fabric.realizer import isolation_errors
from enclave_agent.fabric.ufm import Ufm, UfmClient

from tests.fabric.test_opensm_partitions import DEFAULT_LIMITED, A, B, document, two_tenants
from tests.fabric.ufmsim import PASSWORD, USER, UfmStandIn


@pytest.fixture
def ufm(fabric):
    """A fresh stand-in (no pkeys; the storage port full in the default partition) on the module's fabric."""
    with UfmStandIn(fabric, shared=(fabric.guids["storage"],)) as standin:
        yield standin


def agent_for(fabric, ufm, tmp_path, password=PASSWORD):
    """A fabric agent whose realizer is UFM."""
    realizer = Ufm(UfmClient(ufm.url, USER, password), tmp_path / "agent", fabric.diags())
    return FabricAgent(realizer, tmp_path / "agent", settle=30)


def test_each_tenants_ports_hold_their_own_key_through_ufm(fabric, ufm, tmp_path):
    report = agent_for(fabric, ufm, tmp_path).run_pass(two_tenants(fabric))
    assert report["errors"] == []
    assert isolation_errors(two_tenants(fabric), fabric.tables(), {fabric.sm_guid}) == []
    assert ufm.pkeys["0x12"]["partition"] == "enclave_0012"
    assert {m["guid"] for m in ufm.pkeys["0x13"]["guids"]} == {fabric.guids["b-node"][2:], fabric.guids["b-vf"][2:]}
    assert report["sm"]["kind"] == "ufm" and report["sm"]["m_key"] is False  # not confirmable through REST


def test_a_removed_partition_is_deleted_in_ufm_and_gone_from_the_tables(fabric, ufm, tmp_path):
    agent = agent_for(fabric, ufm, tmp_path)
    agent.run_pass(two_tenants(fabric))
    assert agent.run_pass(document(fabric, 2, {A: ["a-node"]}))["errors"] == []
    assert sorted(ufm.pkeys) == ["0x12"]
    assert fabric.table("b-node") == {DEFAULT_LIMITED}
    assert ("DELETE", "/ufmRest/resources/pkeys/0x0013") in ufm.requests


def test_an_edit_in_ufm_is_set_back_on_the_next_pass(fabric, ufm, tmp_path):
    """An administrator adds B's node to A's pkey in UFM: reported as drift, set again, tables restored."""
    agent = agent_for(fabric, ufm, tmp_path)
    agent.run_pass(two_tenants(fabric))
    ufm.pkeys["0x12"]["guids"].append({"guid": fabric.guids["b-node"][2:], "membership": "full", "index0": False})
    ufm.apply()
    report = agent.run_pass(None)
    assert "drift: UFM pkey 0x0012 was changed outside Enclave; set again" in report["errors"]
    assert fabric.table("b-node") == {DEFAULT_LIMITED, B | 0x8000}


def test_a_key_ufm_holds_under_another_name_is_never_taken_over(fabric, ufm, tmp_path):
    ufm.put({"pkey": "0x12", "partition_name": "site_storage", "guids": [fabric.guids["storage"]]})
    ufm.apply()
    report = agent_for(fabric, ufm, tmp_path).run_pass(two_tenants(fabric))
    assert any("UFM holds pkey 0x0012 as 'site_storage'" in e for e in report["errors"])
    assert ufm.pkeys["0x12"]["partition"] == "site_storage"


def test_a_wrong_password_applies_nothing_and_says_why(fabric, ufm, tmp_path):
    report = agent_for(fabric, ufm, tmp_path, password="wrong-password-000").run_pass(two_tenants(fabric))
    assert any("HTTP 401" in e for e in report["errors"])
    assert ufm.pkeys == {}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"pkey": "0x12", "guids": ["0002c903a0000a01"], "colour": "red"}, "colour"),
        ({"pkey": "0x12", "guids": ["0002c903a0000a01=full ;"]}, "guids"),
        ({"pkey": "0x7fff", "guids": []}, "pkey"),
        ({"pkey": "0x12", "guids": [], "membership": "both"}, "membership"),
        ({"pkey": "0x12", "guids": [], "index0": "no"}, "index0"),
    ],
)
def test_the_stand_in_refuses_what_ufm_refuses(ufm, body, field):
    """The stand-in is strict: a body UFM's guide does not allow is a 400 naming the field."""
    auth = "Basic " + __import__("base64").b64encode(f"{USER}:{PASSWORD}".encode()).decode()
    request = urllib.request.Request(f"{ufm.url}/ufmRest/resources/pkeys", data=json.dumps(body).encode(),
                                     method="PUT", headers={"Authorization": auth})  # fmt: skip
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)  # noqa: S310 - loopback test server
    assert refused.value.code == 400 and field in json.loads(refused.value.read())["error"]
    assert ufm.pkeys == {}
