"""The request state machine: two-party approval, guarded compare-and-set transitions, quotas."""

import datetime
import threading

import pytest
from django.core import mail
from django.db import connection

from audit.models import AuditEvent
from core.errors import Conflict, Forbidden, InvalidRequest, QuotaExceeded
from tenants import services
from tenants.choices import ClusterState
from tenants.models import VirtualCluster
from tests.conftest import cluster_data, service_data

pytestmark = pytest.mark.django_db


def submitted_by_member(world, **overrides):
    return services.create_cluster(world.tenant_a, world.member_a, service_data(**overrides), submit=True)


def test_a_members_request_needs_the_pi_before_the_admin(world):
    cluster = submitted_by_member(world)
    assert cluster.state == ClusterState.SUBMITTED
    with pytest.raises(Conflict):
        services.approve_cluster(cluster, world.admin)
    cluster = services.endorse_cluster(cluster, world.owner_a)
    assert cluster.state == ClusterState.ENDORSED and cluster.endorsed_by == world.owner_a
    cluster = services.approve_cluster(cluster, world.admin)
    assert cluster.state == ClusterState.APPROVED and cluster.generation == 2


def test_an_owners_request_goes_straight_to_admins(world):
    cluster = services.create_cluster(world.tenant_a, world.owner_a, service_data(), submit=True)
    assert cluster.state == ClusterState.ENDORSED


def test_a_member_cannot_endorse_and_an_owner_cannot_approve(world):
    cluster = submitted_by_member(world)
    with pytest.raises(Forbidden):
        services.endorse_cluster(cluster, world.member_a)
    with pytest.raises(Forbidden):
        services.endorse_cluster(cluster, world.owner_b)
    services.endorse_cluster(cluster, world.owner_a)
    with pytest.raises(Forbidden):
        services.approve_cluster(cluster, world.owner_a)


def test_rejection_needs_a_reason_and_ends_the_request(world):
    cluster = submitted_by_member(world)
    with pytest.raises(InvalidRequest):
        services.reject_cluster(cluster, world.owner_a, "  ")
    cluster = services.reject_cluster(cluster, world.owner_a, "Use the shared cluster")
    assert cluster.state == ClusterState.REJECTED
    with pytest.raises(Conflict, match="rejected"):
        services.approve_cluster(cluster, world.admin)


def test_approving_a_rejected_request_is_a_409(world, api):
    cluster = submitted_by_member(world)
    services.reject_cluster(cluster, world.admin, "no")
    response = api(world.admin).post(f"/api/v1/clusters/{cluster.pk}/approve/")
    assert response.status_code == 409 and "rejected" in response.json()["detail"]


def test_double_submit_is_a_409_and_changes_nothing(world, api):
    response = api(world.member_a).post("/api/v1/clusters/", cluster_data(tenant=world.tenant_a.pk), format="json")
    pk = response.json()["id"]
    assert api(world.member_a).post(f"/api/v1/clusters/{pk}/submit/").status_code == 200
    events = AuditEvent.objects.count()
    assert api(world.member_a).post(f"/api/v1/clusters/{pk}/submit/").status_code == 409
    assert AuditEvent.objects.count() == events


def test_each_step_emails_the_requester(world, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        cluster = submitted_by_member(world)
        services.endorse_cluster(cluster, world.owner_a)
        services.reject_cluster(cluster, world.admin, "over budget")
    subjects = [m.subject for m in mail.outbox]
    assert any("submitted" in s for s in subjects) and any("endorsed" in s for s in subjects)
    rejected = [m for m in mail.outbox if "rejected" in m.subject][0]
    assert rejected.to == [world.member_a.email] and "over budget" in rejected.body


def test_quota_refusal_names_the_quota_the_ask_and_what_is_left(world):
    quota = world.tenant_a.quota
    services.update_quota(quota, max_vcpus=40)
    with pytest.raises(QuotaExceeded) as refused:
        submitted_by_member(world, worker_count=4, vcpus_per_node=8)  # 6 VMs x 8 = 48 vCPUs
    assert refused.value.detail == ["vCPUs: asked 48, 40 left of 40"]
    assert VirtualCluster.objects.count() == 0, "nothing half-written"


def test_pending_requests_count_at_submit_and_approval_rechecks_quota(world):
    services.update_quota(world.tenant_a.quota, max_nodes=8)
    first = submitted_by_member(world, name="one", worker_count=2)  # 4 VMs
    submitted_by_member(world, name="two", worker_count=2)  # 4 VMs: 8 in all
    with pytest.raises(QuotaExceeded, match="nodes: asked 4, 0 left of 8"):
        submitted_by_member(world, name="three", worker_count=2)
    services.endorse_cluster(first, world.owner_a)
    services.update_quota(world.tenant_a.quota, max_nodes=3)
    with pytest.raises(QuotaExceeded, match="nodes: asked 4, 3 left of 3"):
        services.approve_cluster(first, world.admin)
    assert VirtualCluster.objects.get(pk=first.pk).state == ClusterState.ENDORSED


def test_withdrawing_and_decommissioning(world):
    pending = submitted_by_member(world, name="pending")
    assert services.decommission_cluster(pending, world.member_a).state == ClusterState.RETIRED
    live = services.create_cluster(world.tenant_a, world.owner_a, service_data(name="live"), submit=True)
    live = services.approve_cluster(live, world.admin)
    with pytest.raises(Forbidden):
        services.decommission_cluster(live, world.member_b)
    live = services.decommission_cluster(live, world.member_a.__class__.objects.get(pk=world.owner_a.pk))
    assert live.state == ClusterState.DECOMMISSIONING and live.generation == 3


def test_lease_extension_must_move_forward(world):
    cluster = submitted_by_member(world)
    with pytest.raises(Conflict, match="after the current one"):
        services.extend_lease(cluster, world.owner_a, cluster.lease_end)
    later = cluster.lease_end + datetime.timedelta(days=7)
    assert services.extend_lease(cluster, world.owner_a, later).lease_end == later


def test_expired_leases_start_decommissioning(world):
    from tenants.tasks import expire_leases

    cluster = services.create_cluster(world.tenant_a, world.owner_a, service_data(), submit=True)
    services.approve_cluster(cluster, world.admin)
    VirtualCluster.objects.filter(pk=cluster.pk).update(lease_end=datetime.date(2020, 1, 1))
    assert expire_leases() == 1
    cluster.refresh_from_db()
    assert cluster.state == ClusterState.DECOMMISSIONING
    assert AuditEvent.objects.filter(action="cluster.lease_expired", object_id=str(cluster.pk)).exists()


@pytest.mark.django_db(transaction=True)
def test_two_admins_approving_at_once_exactly_one_wins(world, make_user):
    second_admin = make_user("admin-2", staff=True)
    cluster = services.create_cluster(world.tenant_a, world.owner_a, service_data(), submit=True)
    barrier, outcomes = threading.Barrier(2), []

    def approve(admin):
        try:
            barrier.wait()
            services.approve_cluster(VirtualCluster.objects.get(pk=cluster.pk), admin)
            outcomes.append("approved")
        except Conflict:
            outcomes.append("conflict")
        finally:
            connection.close()

    threads = [threading.Thread(target=approve, args=(a,)) for a in (world.admin, second_admin)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["approved", "conflict"]
    assert AuditEvent.objects.filter(action="cluster.approve", object_id=str(cluster.pk)).count() == 1
    assert VirtualCluster.objects.get(pk=cluster.pk).generation == 2


def test_owners_resize_live_clusters_within_quota(world, api):
    cluster = services.create_cluster(world.tenant_a, world.owner_a, service_data(worker_count=2), submit=True)
    with pytest.raises(Conflict, match="Only live clusters"):
        services.resize_cluster(cluster, world.owner_a, worker_count=3)
    cluster = services.approve_cluster(cluster, world.admin)
    with pytest.raises(Forbidden):
        services.resize_cluster(cluster, world.member_a, worker_count=3)
    with pytest.raises(QuotaExceeded, match="nodes: asked 22"):
        services.resize_cluster(cluster, world.owner_a, worker_count=20)
    resized = services.resize_cluster(cluster, world.owner_a, worker_count=4)
    assert resized.worker_count == 4 and resized.generation == cluster.generation + 1
    event = AuditEvent.objects.get(action="cluster.resize", object_id=str(cluster.pk))
    assert event.before["worker_count"] == 2 and event.after["worker_count"] == 4
    response = api(world.owner_b).post(f"/api/v1/clusters/{cluster.pk}/resize/", {"worker_count": 1}, format="json")
    assert response.status_code == 404
    response = api(world.owner_a).post(f"/api/v1/clusters/{cluster.pk}/resize/", {"worker_count": 0}, format="json")
    assert response.status_code == 400 and "worker_count" in response.json()


def test_the_requester_hears_when_the_cluster_is_ready_or_failed(world, django_capture_on_commit_callbacks):
    cluster = services.create_cluster(world.tenant_a, world.owner_a, service_data(), submit=True)
    with django_capture_on_commit_callbacks(execute=True):
        cluster = services.approve_cluster(cluster, world.admin)
        cluster = services.set_observed(cluster, ClusterState.PROVISIONING, "Reconciling")
        cluster = services.set_observed(cluster, ClusterState.ERROR, "CloneVM_Task: InvalidArgument")
    failed = [m for m in mail.outbox if "failed to provision" in m.subject]
    assert failed and "CloneVM_Task: InvalidArgument" in failed[0].body
    assert not [m for m in mail.outbox if "provisioning" in m.subject.lower()]
