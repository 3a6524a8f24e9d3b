"""A segment's page says where it is realized and how far each node got, with the reason, live while work is pending."""

import pytest

from agents import refresh
from agents import services as agents
from agents.models import Node
from netpolicy import allocation, segments

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def rack(world):
    """A VNI and an IPv4 pool, and a node pool of two enrolled nodes."""
    allocation.create_pool(world.admin, {"name": "vnis", "kind": "vni", "first": 5000, "last": 5999})
    allocation.create_pool(
        world.admin, {"name": "v4", "kind": "ipv4", "cidr": "10.200.0.0/16", "default_prefix_length": 24}
    )
    pool = agents.create_pool("rack-1")
    agents.add_subnet(pool, "10.10.0.0/24", 4790)
    for n in range(2):
        _, raw = agents.create_join_token(pool)
        agents.join(raw, f"n{n}", {"vrf": True}, [{"name": "em1", "address": f"10.10.0.{5 + n}/24"}])
    return pool


def test_each_node_shows_how_far_it_realized_the_segment_and_why(world, client, rack):
    segment = segments.create_segment(
        world.tenant_a, world.admin, {"name": "uvn", "kind": "overlay", "node_pool": rack}
    )
    client.force_login(world.member_a)
    page = client.get(f"/network/segments/{segment.pk}/").content.decode()
    assert "waits for the worker to compile it into the desired state of node pool rack-1" in page
    assert 'hx-trigger="every 3s"' in page and page.count("Waits for the worker to compile") == 2

    refresh.refresh([world.tenant_a.pk])  # what the worker does on commit
    n0, n1 = Node.objects.order_by("name")
    partial = client.get(f"/network/segments/{segment.pk}/", **HTMX).content.decode()
    assert "<html" not in partial and "Compiled into the desired state of node pool rack-1" in partial
    assert partial.count("Enrolled; the agent has not reported yet.") == 2
    agents.record_observed(n0, {"generation": n0.desired_generation - 1, "node_errors": [], "tenants": {}})
    partial = client.get(f"/network/segments/{segment.pk}/", **HTMX).content.decode()
    assert f"Applying generation {n0.desired_generation} (applied {n0.desired_generation - 1})" in partial

    tid = str(world.tenant_a.pk)
    agents.record_observed(
        n0,
        {"generation": n0.desired_generation, "node_errors": [], "tenants": {tid: {"status": "ready", "errors": []}}},
    )
    agents.record_observed(
        n1,
        {
            "generation": n1.desired_generation,
            "node_errors": [],
            "tenants": {tid: {"status": "failed", "errors": ["vxlan add: File exists"]}},
        },
    )
    rows = client.get(f"/network/segments/{segment.pk}/", **HTMX).content.decode().split('id="segment-nodes"')[1]
    n0_row, n1_row = rows.split("<tr>")[2], rows.split("<tr>")[3]
    assert "n0" in n0_row and "Realized" in n0_row
    assert "n1" in n1_row and "Failed: vxlan add: File exists" in n1_row
    assert "every 3s" not in rows  # nothing is applying any more: the page rests


def test_a_requested_or_unplaced_segment_says_why_nothing_is_realized(world, client, rack):
    allocation.create_pool(world.admin, {"name": "vlans", "kind": "vlan", "first": 100, "last": 199})
    requested = segments.create_segment(
        world.tenant_a, world.member_a, {"name": "asked", "kind": "overlay", "node_pool": rack}
    )
    unplaced = segments.create_segment(world.tenant_a, world.admin, {"name": "bare", "kind": "vlan"})
    client.force_login(world.owner_a)
    assert b"Waits for a site admin&#x27;s approval" in client.get(f"/network/segments/{requested.pk}/").content
    page = client.get(f"/network/segments/{unplaced.pk}/").content.decode()
    assert "Not placed on a Linux node pool or a vSphere cluster yet" in page and 'id="segment-nodes"' not in page


def test_a_member_reads_only_their_tenants_errors_and_not_the_nodes_own(world, client, rack):
    """Issue 31, item 7: a node's report stored every tenant's errors in one text, shown on members' pages."""
    segment = segments.create_segment(
        world.tenant_a, world.admin, {"name": "uvn", "kind": "overlay", "node_pool": rack}
    )
    segments.create_segment(world.tenant_b, world.admin, {"name": "bvn", "kind": "overlay", "node_pool": rack})
    refresh.refresh([world.tenant_a.pk, world.tenant_b.pk])
    n0, n1 = Node.objects.order_by("name")
    a, b = str(world.tenant_a.pk), str(world.tenant_b.pk)
    for node in (n0, n1):
        agents.record_observed(node, {
            "generation": node.desired_generation, "node_errors": ["nft transaction failed: set vrf-b-secret-net"],
            "tenants": {a: {"status": "ready", "errors": []},
                        b: {"status": "failed", "errors": ["vxlan add: bvn-secret exists"]}},
        })  # fmt: skip
    n0.refresh_from_db()
    assert n0.tenant_errors == {b: ["vxlan add: bvn-secret exists"]}
    assert n0.last_error == "nft transaction failed: set vrf-b-secret-net"
    client.force_login(world.member_a)
    rows = client.get(f"/network/segments/{segment.pk}/", **HTMX).content.decode().split('id="segment-nodes"')[1]
    assert "Realized, but the node is not ready: the node itself reports a problem" in rows
    assert "secret" not in rows and "tenant-b" not in rows
    client.force_login(world.admin)
    rows = client.get(f"/network/segments/{segment.pk}/", **HTMX).content.decode().split('id="segment-nodes"')[1]
    assert "nft transaction failed: set vrf-b-secret-net" in rows


def test_a_report_names_no_tenant_and_costs_no_query_per_failing_tenant(world, rack, django_assert_max_num_queries):
    node = Node.objects.order_by("name").first()
    failing = {str(pk): {"status": "failed", "errors": [f"e{pk}"]} for pk in range(1000, 1200)}
    with django_assert_max_num_queries(8):
        agents.record_observed(node, {"generation": node.desired_generation, "node_errors": [], "tenants": failing})
    node.refresh_from_db()
    assert len(node.tenant_errors) == 200 and node.last_error == ""
