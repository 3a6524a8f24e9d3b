"""A degraded cluster's generation is observed: the cluster sweep still queues its repair again once a
lease has passed since it was marked and nothing holds its lease (a repair reconcile lost on the way)."""

import datetime

import pytest
from django.utils import timezone

from core import leases
from tenants import realizers, tasks
from tenants.choices import ClusterState
from tenants.models import VirtualCluster

pytestmark = pytest.mark.django_db


@pytest.fixture
def degraded(world, redis_client):
    """A Ready cluster the drift check marked degraded: generation 3, observed 3, no lease yet."""
    cluster = VirtualCluster.objects.create(
        tenant=world.tenant_a, name="drifted", workload_class="parallel-distributed", worker_count=2,
        vcpus_per_node=4, memory_gb_per_node=8, lease_end=timezone.localdate() + datetime.timedelta(days=30),
        justification="x", requested_by=world.owner_a, state=ClusterState.DEGRADED, site_kind="vsphere",
        generation=3, observed_generation=3,
    )  # fmt: skip
    key = f"enclave:lease:{realizers.LEASE}:{cluster.pk}"
    redis_client.delete(key)  # a pk an earlier run's test leased
    yield cluster
    redis_client.delete(key)


def marked_ago(cluster, seconds: float) -> None:
    """The cluster's last change (its move to degraded) happened this long ago."""
    VirtualCluster.objects.filter(pk=cluster.pk).update(updated=timezone.now() - datetime.timedelta(seconds=seconds))


def test_a_degraded_cluster_whose_repair_was_lost_is_queued_again_by_the_sweep(degraded):
    marked_ago(degraded, leases.grace() + 5)
    assert tasks.sweep_clusters() == 1
    assert leases.leased(realizers.LEASE, [degraded.pk]) == {degraded.pk}  # queued: the next sweep leaves it


def test_a_degraded_cluster_marked_within_a_lease_is_left_to_its_queued_repair(degraded):
    marked_ago(degraded, 0)  # the drift check's repair holds no lease until a worker takes it
    assert tasks.sweep_clusters() == 0


def test_a_degraded_cluster_whose_repair_holds_a_lease_is_left_to_it(degraded):
    marked_ago(degraded, leases.grace() + 5)
    leases.take(realizers.LEASE, [degraded.pk])  # a repair queued or running
    assert tasks.sweep_clusters() == 0


def test_the_sweep_still_leaves_a_cluster_in_error_alone(degraded):
    VirtualCluster.objects.filter(pk=degraded.pk).update(state=ClusterState.ERROR)
    marked_ago(degraded, leases.grace() + 5)
    assert tasks.sweep_clusters() == 0  # it waits for a person or a new generation
