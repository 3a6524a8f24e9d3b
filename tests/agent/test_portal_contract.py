"""The agent's own client and parser against the real Django endpoints (wire-format contract)."""

import pytest
from enclave_agent.client import PortalClient, PortalError, join
from enclave_agent.state import vxlan_name

from agents import services, sources
from agents.choices import NodeStatus
from agents.desired import TenantNetwork
from agents.models import Node

pytestmark = pytest.mark.django_db(transaction=True)
IFACES = [{"name": "enp129s0f1np1", "address": "10.10.0.5/24", "gateway": "10.10.0.1"}]


@pytest.fixture
def enrolled(live_server, monkeypatch):
    """A pool with one tenant network (the intent source is still a stub) and a joined node."""
    net = TenantNetwork(tenant_id=70001, slug="acme", vni=70001, subnet="", uids=(5001, 5002))
    monkeypatch.setattr(sources, "tenant_networks", lambda pool: [net])
    monkeypatch.setattr(sources, "ruleset", lambda node, nets: "table inet enclave {\n}\n")
    pool = services.create_pool("contract")
    services.add_subnet(pool, "10.10.0.0/24", 4790)
    _, raw = services.create_join_token(pool)
    data = join(live_server.url, raw, "node-c", {"vrf": True}, interfaces=IFACES)
    return live_server.url, data, raw


def test_the_agent_joins_once_and_parses_the_real_desired_state(enrolled):
    url, data, raw = enrolled
    with pytest.raises(PortalError):
        join(url, raw, "node-d", {})
    client = PortalClient(url, data["node"], data["credential"])
    fetched = client.desired_state(None, wait=0)
    tenant = fetched.state.tenants[0]
    assert tenant.table == 0x0100_0000 + 70001 and tenant.uids == (5001, 5002)
    assert tenant.vxlans[0].device == vxlan_name("enp129s0f1np1", 70001)  # same shortening
    assert tenant.vxlans[0].dstport == 4790 and tenant.vxlans[0].address == "10.10.0.5/24"
    assert client.desired_state(fetched.etag, wait=0).state is None


def test_the_agents_report_marks_the_node_ready(enrolled):
    url, data, _ = enrolled
    client = PortalClient(url, data["node"], data["credential"])
    generation = client.desired_state(None, wait=0).state.generation
    client.report({"generation": generation, "full": True, "ops": 3, "processes": 2,
                   "seconds": 0.1, "capabilities": {"vrf": True},
                   "tenants": {"70001": {"status": "ready", "errors": []}}, "node_errors": []})
    node = Node.objects.get(name="node-c")
    assert node.status == NodeStatus.READY and node.applied_generation == generation


def test_a_node_credential_cannot_read_another_nodes_state(enrolled):
    url, data, _ = enrolled
    with pytest.raises(PortalError):
        PortalClient(url, "some-other-node", data["credential"]).desired_state(None, wait=0)
