"""In Debian's Chromium: a resize shows its plan and waits for confirmation; the cluster page then follows the work
live (no reload by hand) and settles once the site observed it."""

import pytest

from tenants import services
from tenants.choices import ClusterState as S
from tests.browser import login
from tests.conftest import service_data

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_resize_is_planned_confirmed_and_followed_live_until_applied(browser, live_server, world, tmp_path):
    cluster = services.create_cluster(world.tenant_a, world.owner_a, service_data(worker_count=2), submit=True)
    cluster = services.approve_cluster(cluster, world.admin)
    cluster = services.set_observed(cluster, S.READY, "Realized on vSphere", observed_generation=cluster.generation)

    owner = login(browser, live_server, "owner-a")
    owner.goto(f"{live_server.url}/clusters/{cluster.pk}/")
    owner.fill("#resize-form input[name=worker_count]", "4")
    owner.click("#review-resize")
    owner.wait_for_selector("#resize-changes:has-text('workers 2 → 4')")
    owner.wait_for_selector("#resize-sizes:has-text('VMs')")
    owner.screenshot(path=str(tmp_path / "resize-plan.png"), full_page=True)
    cluster.refresh_from_db()
    assert cluster.worker_count == 2  # nothing is submitted before the confirmation
    owner.click("#confirm-resize")
    owner.wait_for_selector(".messages:has-text('Resize of tenant-a/mpi-1 submitted (workers 2 → 4)')")
    assert "is now ready" not in owner.inner_text(".messages")
    owner.wait_for_selector("#cluster-work:has-text('workers 2 → 4')")

    # The worker reports progress: the status card shows it without a reload by hand.
    cluster.refresh_from_db()
    cluster = services.set_observed(cluster, S.PROVISIONING, "Cloning tenant-a-mpi-1-worker-4")
    owner.wait_for_selector("#cluster-state:has-text('Provisioning')")
    owner.wait_for_selector("#cluster-waiting:has-text('Cloning tenant-a-mpi-1-worker-4')")
    services.set_observed(cluster, S.READY, "Realized on vSphere", observed_generation=cluster.generation)
    owner.wait_for_selector("#cluster-state:has-text('Ready')")
    owner.wait_for_selector("#cluster-work", state="detached")
    assert "workers 2 → 4" in owner.inner_text("#history")
    owner.screenshot(path=str(tmp_path / "resized.png"), full_page=True)


def test_cancelling_a_resize_plan_changes_nothing(browser, live_server, world):
    cluster = services.create_cluster(world.tenant_a, world.owner_a, service_data(worker_count=2), submit=True)
    cluster = services.approve_cluster(cluster, world.admin)
    owner = login(browser, live_server, "owner-a")
    owner.goto(f"{live_server.url}/clusters/{cluster.pk}/")
    owner.fill("#resize-form input[name=worker_count]", "3")
    owner.click("#review-resize")
    owner.click("#cancel-resize")
    owner.wait_for_selector("#cluster-state")
    cluster.refresh_from_db()
    assert cluster.worker_count == 2 and cluster.generation == 2


def test_the_node_and_segment_pages_follow_a_node_until_it_applied_the_segment(browser, live_server, world):
    from agents import refresh
    from agents import services as agents
    from agents.models import Node
    from netpolicy import allocation, segments

    allocation.create_pool(world.admin, {"name": "vnis", "kind": "vni", "first": 5000, "last": 5999})
    allocation.create_pool(
        world.admin, {"name": "v4", "kind": "ipv4", "cidr": "10.200.0.0/16", "default_prefix_length": 24}
    )
    pool = agents.create_pool("rack-1")
    agents.add_subnet(pool, "10.10.0.0/24", 4790)
    _, raw = agents.create_join_token(pool)
    node, _ = agents.join(raw, "n0", {"vrf": True}, [{"name": "em1", "address": "10.10.0.5/24"}])
    segment = segments.create_segment(
        world.tenant_a, world.admin, {"name": "uvn", "kind": "overlay", "node_pool": pool}
    )
    refresh.refresh([world.tenant_a.pk])
    node = Node.objects.get(pk=node.pk)
    agents.record_observed(node, {"generation": node.desired_generation - 1, "node_errors": [], "tenants": {}})

    admin = login(browser, live_server, "site-admin")
    admin.goto(f"{live_server.url}/nodes/{node.pk}/")
    admin.wait_for_selector(f"#node-applying:has-text('generation {node.desired_generation} waits for the agent')")
    member = login(browser, live_server, "member-a")
    member.goto(f"{live_server.url}/network/segments/{segment.pk}/")
    member.wait_for_selector(f"#segment-nodes:has-text('Applying generation {node.desired_generation}')")

    agents.record_observed(
        node,
        {
            "generation": node.desired_generation,
            "node_errors": [],
            "tenants": {str(world.tenant_a.pk): {"status": "failed", "errors": ["vxlan add: File exists"]}},
        },
    )
    admin.wait_for_selector("#node-applying:has-text('Up to date')")
    admin.wait_for_selector("#node-tenants:has-text('tenant-a')")
    member.wait_for_selector("#segment-nodes:has-text('Failed: vxlan add: File exists')")
