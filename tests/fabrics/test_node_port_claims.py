"""A node reports only its own HCA ports: a VF's GUID, or a port another node reports too, joins no partition."""

import pytest

from agents import services as agent_services
from agents.models import Node
from fabrics import hooks
from fabrics import services as fabric_services
from netpolicy import segments
from netpolicy.models import Pool
from tests.test_agents_api import agent

pytestmark = pytest.mark.django_db
OWN = "0x0002c90300b00001"


def _node(pool, name):
    _, raw = agent_services.create_join_token(pool)
    return agent_services.join(raw, name, {}, [])


def _port(guid: str) -> dict:
    return {"device": "mlx5_0", "port": 1, "guid": guid, "netdev": "ib0"}


def _members(doc: dict) -> list[str]:
    return [guid for partition in doc["partitions"] for guid in partition["full"]]


@pytest.fixture
def rack(world, site):
    """Node pool ib-rack on the fabric, carrying tenant B's overlay; node n1 joined."""
    pool = agent_services.create_pool("ib-rack")
    node, credential = _node(pool, "n1")
    fabric_services.update_fabric(site.fabric, {}, pools=[pool])
    Pool.objects.create(name="vnis", kind="vni", first=5000, last=5999)
    segments.create_segment(world.tenant_b, world.admin, {"name": "ib", "kind": "overlay", "node_pool": pool})
    return pool, node, credential


def test_a_node_reporting_another_tenants_vf_guid_leaves_that_vf_in_its_own_partition(world, site, rack):
    cluster = site.approve(world.tenant_a, world.owner_a)
    victim = site.desired()["partitions"][0]["full"][0]
    report = {"generation": 0, "ib_ports": [_port(victim), _port(OWN)]}
    assert agent(rack[2]).post("/api/v1/agents/n1/observed-state", report, format="json").status_code == 204
    doc = site.desired()
    assert victim in _members(doc) and OWN in _members(doc)
    assert site.fabric.__class__.objects.get(pk=site.fabric.pk).conflicts == {}
    assert not [text for text in hooks.cluster_waiting(cluster) if "one tenant only" in text]


def test_a_node_reporting_a_guid_inside_the_vf_range_gets_no_partition_for_it(world, site, rack):
    unused_vf = "0x005056fffea000ff"  # inside the fabric's VF range, not yet given to a VF
    agent_services.record_observed(rack[1], {"generation": 0, "ib_ports": [_port(unused_vf)]})
    assert unused_vf not in _members(site.desired())
    segment = world.tenant_b.segments.get(name="ib")
    assert not [text for text in hooks.segment_waiting(segment) if unused_vf in text]  # not waited for


def test_a_port_guid_two_nodes_report_joins_no_partition_until_one_stops_and_both_nodes_say_why(world, site, rack):
    agent_services.record_observed(rack[1], {"generation": 0, "ib_ports": [_port(OWN)]})
    assert OWN in _members(site.desired())
    intruder, _ = _node(rack[0], "n2")
    other = "0x0002c90300b00002"
    agent_services.record_observed(intruder, {"generation": 0, "ib_ports": [_port(OWN), _port(other)]})
    assert OWN not in _members(site.desired()) and other in _members(site.desired())  # fail closed
    intruder.refresh_from_db()
    assert f"InfiniBand port GUID {OWN} is also reported by node n1" in intruder.last_error
    agent_services.record_observed(rack[1], {"generation": 1, "ib_ports": [_port(OWN)]})
    assert "also reported by node n2" in Node.objects.get(pk=rack[1].pk).last_error
    agent_services.record_observed(intruder, {"generation": 1, "ib_ports": [_port(other)]})  # it stops
    assert OWN in _members(site.desired())


def test_a_node_reporting_its_own_ports_again_keeps_them(world, site, rack):
    for _ in range(2):
        agent_services.record_observed(rack[1], {"generation": 0, "ib_ports": [_port(OWN)]})
    node = Node.objects.get(pk=rack[1].pk)
    assert [p["guid"] for p in node.ib_ports] == [OWN] and node.last_error == ""


def test_a_node_of_a_pool_on_no_fabric_disputing_a_port_takes_it_out_until_it_stops(world, site, rack):
    agent_services.record_observed(rack[1], {"generation": 0, "ib_ports": [_port(OWN)]})
    elsewhere = agent_services.create_pool("no-fabric-rack")
    intruder, _ = _node(elsewhere, "n9")
    agent_services.record_observed(intruder, {"generation": 0, "ib_ports": [_port(OWN)]})
    assert OWN not in _members(site.desired())
    agent_services.record_observed(intruder, {"generation": 1, "ib_ports": []})
    assert OWN in _members(site.desired())


def test_revoking_a_nodes_credential_drops_its_ports_so_a_re_enrolled_host_gets_its_port_back(world, site, rack):
    agent_services.record_observed(rack[1], {"generation": 0, "ib_ports": [_port(OWN)]})
    renamed, _ = _node(rack[0], "n1-new")  # the same host enrolled again under another name
    agent_services.record_observed(renamed, {"generation": 0, "ib_ports": [_port(OWN)]})
    assert OWN not in _members(site.desired())  # disputed while the old row still reports it
    agent_services.revoke_credentials(rack[1])
    assert Node.objects.get(pk=rack[1].pk).ib_ports == []
    assert OWN in _members(site.desired())
