"""Admin pages show nodes, their state, last report, errors and the tenants realized on each."""

import pytest

from agents import services
from agents.models import Node

pytestmark = pytest.mark.django_db


def test_the_node_pages_show_state_errors_and_tenants(world, client):
    pool = services.create_pool("rack-9")
    _, raw = services.create_join_token(pool)
    node, _ = services.join(raw, "node-9", {"vrf": False, "kernel": "6.1.0"})
    services.record_observed(node, {"generation": 2, "node_errors": [], "tenants": {
        str(world.tenant_a.pk): {"status": "ready", "errors": []},
        str(world.tenant_b.pk): {"status": "failed", "errors": ["vxlan add: File exists"]}}})  # fmt: skip
    client.force_login(world.admin)
    listing = client.get("/nodes/").content.decode()
    assert (
        "node-9" in listing and "NotReady" in listing and "no VRF" in listing and "(1 tenant report errors)" in listing
    )
    detail = client.get(f"/nodes/{node.pk}/").content.decode()
    assert "tenant-a" in detail and "tenant-b" in detail and "vxlan add: File exists" in detail
    # tenants by slug and name, never by id; capabilities as a table, never a Python dict
    row_b = detail.split('id="node-tenants"')[1].split("tenant-b")[1].split("</tr>")[0]
    assert "vxlan add: File exists" in row_b and f"tenant {world.tenant_b.pk}:" not in detail
    assert "Tenant B" in detail and "{&#x27;vrf&#x27;" not in detail and "{'vrf'" not in detail
    capabilities = detail.split('id="node-capabilities"')[1].split("</table>")[0]
    assert "VRF (a routing table per tenant)" in capabilities and ">no</span>" in capabilities
    assert '<th scope="row">Kernel</th>' in capabilities and "6.1.0" in capabilities
    token_page = client.post(f"/nodes/pools/{pool.pk}/join-token/", follow=True).content.decode()
    assert "enclave-agent join --server" in token_page and "encj_" in token_page


def test_the_node_page_stays_live_until_the_node_applied_its_generation(world, client):
    pool = services.create_pool("rack-9")
    _, raw = services.create_join_token(pool)
    node, _ = services.join(raw, "node-9", {"vrf": True, "kernel": "6.1.0"})
    Node.objects.filter(pk=node.pk).update(desired_generation=3, applied_generation=2)
    client.force_login(world.admin)
    page = client.get(f"/nodes/{node.pk}/").content.decode()
    assert 'hx-trigger="every 3s"' in page and "Applying: generation 3 waits for the agent" in page
    services.record_observed(node, {"generation": 3, "node_errors": [], "tenants": {}})
    partial = client.get(f"/nodes/{node.pk}/", HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in partial and "Up to date" in partial and "every 3s" not in partial
