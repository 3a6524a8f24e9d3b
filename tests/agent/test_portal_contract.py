"""The agent's own client and parser against the real Django endpoints (wire-format contract)."""

import json
import subprocess

import pytest
from enclave_agent.client import PortalClient, PortalError, join
from enclave_agent.state import parse, vxlan_name

from agents import refresh, services
from agents.choices import NodeStatus
from agents.models import Node

pytestmark = pytest.mark.django_db(transaction=True)
IFACES = [{"name": "enp129s0f1np1", "address": "10.10.0.5/24", "gateway": "10.10.0.1"}]


@pytest.fixture
def enrolled(live_server, world):
    """Real intent: tenant A's overlay segment on a node pool, two members with UIDs, a joined node."""
    from netpolicy import allocation, segments
    from users.models import PosixAccount

    pool = services.create_pool("contract")
    services.add_subnet(pool, "10.10.0.0/24", 4790)
    allocation.create_pool(world.admin, {"name": "vnis", "kind": "vni", "first": 70001, "last": 70100})
    allocation.create_pool(world.admin, {"name": "v4", "kind": "ipv4", "cidr": "10.200.0.0/16",
                                         "default_prefix_length": 24})  # fmt: skip
    segments.create_segment(world.tenant_a, world.admin, {"name": "uvn", "kind": "overlay", "node_pool": pool})
    PosixAccount.objects.create(user=world.owner_a, uid=5001)
    PosixAccount.objects.create(user=world.member_a, uid=5002)
    _, raw = services.create_join_token(pool)
    data = join(live_server.url, raw, "node-c", {"vrf": True}, interfaces=IFACES)
    refresh.refresh([world.tenant_a.pk])  # the worker's compile after commit
    return live_server.url, data, raw, world.tenant_a.pk


def test_the_agent_joins_once_and_parses_the_real_desired_state(enrolled):
    url, data, raw, tid = enrolled
    with pytest.raises(PortalError):
        join(url, raw, "node-d", {})
    client = PortalClient(url, data["node"], data["credential"])
    fetched = client.desired_state(None, wait=0)
    tenant = fetched.state.tenants[0]
    assert tenant.table == 0x0100_0000 + tid and tenant.vni == 70001 and tenant.uids == (5001, 5002)
    assert tenant.vxlans[0].device == vxlan_name("enp129s0f1np1", tid)  # same shortening
    assert "table inet enclave" in fetched.state.nftables
    assert tenant.vxlans[0].dstport == 4790 and tenant.vxlans[0].address == "10.10.0.5/24"
    assert client.desired_state(fetched.etag, wait=0).state is None


def test_the_agents_report_marks_the_node_ready(enrolled):
    url, data, _, tid = enrolled
    client = PortalClient(url, data["node"], data["credential"])
    generation = client.desired_state(None, wait=0).state.generation
    client.report(
        {
            "generation": generation,
            "full": True,
            "ops": 3,
            "processes": 2,
            "seconds": 0.1,
            "capabilities": {"vrf": True},
            "tenants": {str(tid): {"status": "ready", "errors": []}},
            "node_errors": [],
        }
    )
    node = Node.objects.get(name="node-c")
    assert node.status == NodeStatus.READY and node.applied_generation == generation


def test_a_node_credential_cannot_read_another_nodes_state(enrolled):
    url, data, *_ = enrolled
    with pytest.raises(PortalError):
        PortalClient(url, "some-other-node", data["credential"]).desired_state(None, wait=0)


def test_the_gzip_document_is_the_plain_one_for_the_agent_and_for_curl(enrolled):
    url, data, *_ = enrolled
    target = f"{url}/api/v1/agents/{data['node']}/desired-state"
    auth = f"Authorization: Bearer {data['credential']}"
    plain = subprocess.run(["curl", "-sf", "-H", auth, target], capture_output=True, check=True).stdout
    # curl decodes the gzip stream of two members (the node's head, the pool's shared tail) itself
    decoded = subprocess.run(["curl", "-sf", "--compressed", "-D", "-", "-H", auth, target],
                             capture_output=True, check=True).stdout  # fmt: skip
    head, _, body = decoded.partition(b"\r\n\r\n")
    assert b"content-encoding: gzip" in head.lower() and body == plain
    fetched = PortalClient(url, data["node"], data["credential"]).desired_state(None, wait=0)
    assert fetched.etag.startswith("W/") and fetched.state == parse(json.loads(plain))
    assert fetched.state.to_json() == plain.decode()  # what the agent keeps on disk: the plain text
