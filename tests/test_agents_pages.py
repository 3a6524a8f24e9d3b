"""Admin pages show nodes, their state, last report, errors and the tenants realized on each."""

import pytest

from agents import services

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
    assert "node-9" in listing and "NotReady" in listing and "no VRF" in listing
    detail = client.get(f"/nodes/{node.pk}/").content.decode()
    assert "tenant-a" in detail and "tenant-b" in detail and "vxlan add: File exists" in detail
    token_page = client.post(f"/nodes/pools/{pool.pk}/join-token/", follow=True).content.decode()
    assert "enclave-agent join --server" in token_page and "encj_" in token_page
