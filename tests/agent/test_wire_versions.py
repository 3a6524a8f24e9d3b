"""The agent's own client says which document schemas it reads, against the real Django endpoints."""

import pytest
from enclave_agent import wire
from enclave_agent.agent import Report
from enclave_agent.client import PortalClient, PortalError, join

from agents import services
from agents.models import Node

pytestmark = pytest.mark.django_db(transaction=True)
IFACES = [{"name": "em1", "address": "10.10.0.5/24"}]


@pytest.fixture
def joined(live_server):
    pool = services.create_pool("contract")
    services.add_subnet(pool, "10.10.0.0/24", 4790)
    _, raw = services.create_join_token(pool)
    data = join(live_server.url, raw, "node-c", {"vrf": True}, interfaces=IFACES)
    return PortalClient(live_server.url, data["node"], data["credential"])


def test_the_agent_says_what_it_reads_when_it_joins_and_in_every_report(joined):
    assert wire.READS == (1, 2) and wire.reads_header() == "1,2"
    assert Node.objects.get(name="node-c").wire_reads == [1, 2]
    generation = joined.desired_state(None, wait=0).state.generation
    Node.objects.filter(name="node-c").update(wire_reads=[2])
    joined.report(Report(generation, True, 0, 0, 0.0, {"vrf": True}).to_dict())
    assert Node.objects.get(name="node-c").wire_reads == [1, 2]


def test_an_agent_that_reads_only_schema_1_is_told_to_upgrade_and_reads_again_once_upgraded(joined, monkeypatch):
    monkeypatch.setattr(wire, "READS", (1,))  # its Enclave-Wire header now says "1"
    with pytest.raises(PortalError) as refused:
        joined.desired_state(None, wait=0)
    assert refused.value.status == 409 and "upgrade the agent" in str(refused.value)
    monkeypatch.setattr(wire, "READS", (1, 2))
    assert joined.desired_state(None, wait=0).state is not None
