"""The approvals page gathers everything waiting for the user's decision."""

import pytest

from tenants import services
from tests.conftest import service_data

pytestmark = pytest.mark.django_db


def test_owners_see_requests_to_endorse_and_admins_also_pending_segments(world, client):
    from netpolicy import allocation, segments

    allocation.create_pool(world.admin, {"name": "vl", "kind": "vlan", "first": 10, "last": 20})
    v4 = {"name": "v4", "kind": "ipv4", "cidr": "10.50.0.0/16", "default_prefix_length": 24}
    allocation.create_pool(world.admin, v4)
    services.create_cluster(world.tenant_a, world.member_a, service_data(name="wants-pi"), submit=True)
    segments.create_segment(world.tenant_a, world.member_a, {"name": "lab-net", "kind": "vlan"})
    client.force_login(world.owner_a)
    page = client.get("/approvals/").content.decode()
    assert "wants-pi" in page and "lab-net" not in page
    client.force_login(world.admin)
    page = client.get("/approvals/").content.decode()
    assert "lab-net" in page and "Segments waiting for approval" in page
    client.force_login(world.owner_b)
    assert "wants-pi" not in client.get("/approvals/").content.decode()
