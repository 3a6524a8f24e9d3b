"""A cluster with InfiniBand VFs on a managed fabric is Ready only once the fabric reports them in its partition."""

from django.urls import reverse

from tenants import services
from tenants.choices import ClusterState
from tests.fabrics.conftest import programmed
from vsphere import tasks
from vsphere.services import StepLog


def _converged(cluster) -> str:
    """What the vSphere reconcile does once vCenter matches the intent (tasks._succeed)."""
    cluster.refresh_from_db()
    return tasks._succeed(cluster, cluster.generation, StepLog(cluster, cluster.generation))


def test_a_converged_cluster_waits_for_the_fabric_and_turns_ready_once_the_report_shows_its_ports(
    world, site, monkeypatch, django_capture_on_commit_callbacks
):
    cluster = site.approve(world.tenant_a, world.owner_a)
    services.set_observed(cluster, ClusterState.PROVISIONING, "Reconciling on vSphere")
    assert _converged(cluster) == "waiting"
    cluster.refresh_from_db()
    assert cluster.state == ClusterState.PROVISIONING and "partition 0x0010" in cluster.status_message
    queued = []
    monkeypatch.setattr("tenants.realizers.realize", queued.append)
    with django_capture_on_commit_callbacks(execute=True):
        report = programmed(site.desired())
        site.agent().post(reverse("agent-fabric-report", kwargs={"fabric": "ib0"}), report, format="json")
    assert queued == [cluster.pk]  # the fabric's report re-queues the waiting reconcile
    assert _converged(cluster) == "ready"
    cluster.refresh_from_db()
    assert cluster.state == ClusterState.READY


def test_a_cluster_on_a_host_no_fabric_manages_is_not_held_back(world, site):
    from fabrics.models import FabricHost

    FabricHost.objects.all().delete()
    cluster = site.approve(world.tenant_b, world.owner_b, name="plain")
    services.set_observed(cluster, ClusterState.PROVISIONING, "Reconciling on vSphere")
    assert _converged(cluster) == "ready"
