"""Object pages tell the truth while work is pending: what is applied, why it waits or failed; resizes
show their plan and ask for confirmation; history rows and e-mails say what changed."""

import pytest
from django.core import mail

from audit.models import AuditEvent
from tenants import services
from tenants.choices import ClusterState as S
from tenants.models import VirtualCluster
from tests.conftest import service_data

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def ready_cluster(world, **overrides):
    """An owner's cluster, approved and observed ready at its generation (as a site's reconciler reports it)."""
    cluster = services.create_cluster(world.tenant_a, world.owner_a, service_data(**overrides), submit=True)
    cluster = services.approve_cluster(cluster, world.admin)
    cluster = services.set_observed(cluster, S.PROVISIONING, "Reconciling on vSphere")
    return services.set_observed(cluster, S.READY, "Realized on vSphere", observed_generation=cluster.generation)


def test_a_resize_shows_its_plan_and_changes_nothing_until_confirmed(world, client):
    cluster = ready_cluster(world, worker_count=2)
    client.force_login(world.owner_a)
    page = client.get(f"/clusters/{cluster.pk}/").content.decode()
    assert 'id="review-resize"' in page
    plan = client.post(f"/clusters/{cluster.pk}/resize/", {"worker_count": 4, "interconnect": "sriov-ib"})
    text = plan.content.decode()
    assert plan.status_code == 200 and "workers 2 → 4" in text and 'id="confirm-resize"' in text
    # sizes with the manager and login node counted, and the quota effect of this cluster
    assert '<th scope="row">VMs</th><td>4</td><td>6</td>' in text and "SR-IOV VFs" in text
    assert 'id="resize-quota"' in text and "nodes" in text
    unchanged = VirtualCluster.objects.get(pk=cluster.pk)
    assert (unchanged.worker_count, unchanged.generation) == (2, cluster.generation)
    assert not AuditEvent.objects.filter(action="cluster.resize").exists()

    done = client.post(
        f"/clusters/{cluster.pk}/resize/",
        {"worker_count": 4, "interconnect": "sriov-ib", "confirm": "yes"},
        follow=True,
    )
    text = done.content.decode()
    assert VirtualCluster.objects.get(pk=cluster.pk).worker_count == 4
    assert "Resize of tenant-a/mpi-1 submitted (workers 2 → 4)" in text and "is now ready" not in text


def test_an_over_quota_or_pointless_resize_plan_offers_no_confirmation(world, client):
    cluster = ready_cluster(world, worker_count=2)
    client.force_login(world.owner_a)
    text = client.post(f"/clusters/{cluster.pk}/resize/", {"worker_count": 40, "interconnect": "sriov-ib"}).content
    text = text.decode()
    assert "would be refused" in text and "nodes: asked 42" in text and "over by" in text
    assert 'id="confirm-resize"' not in text
    same = client.post(f"/clusters/{cluster.pk}/resize/", {"worker_count": 2, "interconnect": "sriov-ib"}).content
    assert b"Nothing: the cluster already has 2 workers" in same and b'id="confirm-resize"' not in same


def test_a_member_gets_no_resize_plan(world, client):
    cluster = ready_cluster(world)
    client.force_login(world.member_a)
    response = client.post(
        f"/clusters/{cluster.pk}/resize/", {"worker_count": 4, "interconnect": "sriov-ib"}, follow=True
    )
    assert b"Only a tenant owner or a site admin" in response.content and b"confirm-resize" not in response.content


def test_the_cluster_page_stays_live_and_says_what_is_applied_until_the_site_observed_it(world, client):
    cluster = ready_cluster(world, worker_count=2)
    client.force_login(world.member_a)
    settled = client.get(f"/clusters/{cluster.pk}/").content.decode()
    assert 'hx-trigger="every 3s"' not in settled.split('id="cluster-status"')[1].split(">")[0]

    cluster = services.resize_cluster(cluster, world.owner_a, worker_count=4)
    page = client.get(f"/clusters/{cluster.pk}/").content.decode()
    status = page.split('id="cluster-status"')[1].split("</div>")[0]
    assert 'hx-trigger="every 3s"' in page.split('id="cluster-status"')[1].split(">")[0]
    assert "Applying the latest change" in status and "workers 2 → 4" in status  # a member reads words
    assert "generation" not in status
    assert "is now ready" not in page
    # the history row of the resize says what changed
    history = page.split('id="history"')[1]
    assert "cluster.resize" in history and "workers 2 → 4" in history

    cluster = services.set_observed(cluster, S.PROVISIONING, "Retrying in 20s: vCenter unreachable")
    partial = client.get(f"/clusters/{cluster.pk}/", **HTMX)
    assert partial.status_code == 200 and b"Retrying in 20s: vCenter unreachable" in partial.content
    assert b"<html" not in partial.content  # the status card alone

    cluster = services.set_observed(cluster, S.ERROR, "CloneVM_Task: InvalidArgument")
    failed = client.get(f"/clusters/{cluster.pk}/", **HTMX).content.decode()
    assert "Failed:" in failed and "CloneVM_Task: InvalidArgument" in failed and "every 3s" in failed

    services.set_observed(cluster, S.READY, "Realized on vSphere", observed_generation=cluster.generation)
    done = client.get(f"/clusters/{cluster.pk}/", **HTMX)
    assert done.headers.get("HX-Refresh") == "true"  # work done: the whole page reloads once, then rests


def test_the_resize_email_says_what_changed_instead_of_the_first_ready_text(world, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        cluster = ready_cluster(world, worker_count=2)
    first = [m for m in mail.outbox if m.subject.endswith("is ready")]
    assert len(first) == 1 and "is now Ready" in first[0].body
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        cluster = services.resize_cluster(cluster, world.owner_a, worker_count=4, interconnect="none")
        cluster = services.set_observed(cluster, S.PROVISIONING, "Reconciling on vSphere")
        services.set_observed(cluster, S.READY, "Realized on vSphere", observed_generation=cluster.generation)
    (resized,) = [m for m in mail.outbox if m.to == [world.owner_a.email]]
    assert resized.subject.endswith(
        "tenant-a/mpi-1 resized: workers 2 → 4, interconnect SR-IOV InfiniBand → None (VMXNET3 only)"
    )
    assert "What changed:\n    workers 2 → 4\n    interconnect SR-IOV InfiniBand → None (VMXNET3 only)" in resized.body
    assert "Now: 4 workers + manager + login = 6 VMs" in resized.body
    assert "Your cluster request" not in resized.body and "is ready" not in resized.subject


def test_the_tenants_page_counts_each_tenants_members_and_clusters(world, client):
    services.create_cluster(world.tenant_a, world.owner_a, service_data(), submit=True)
    services.create_cluster(world.tenant_a, world.owner_a, service_data(name="mpi-2"), submit=True)
    client.force_login(world.admin)
    page = client.get("/tenants/").content.decode()
    for tenant, clusters in ((world.tenant_a, 2), (world.tenant_b, 0)):
        row = f"{tenant.slug}</a></td><td>{tenant.name}</td><td>{tenant.memberships.count()}</td><td>{clusters}<"
        assert row in page
