"""Nothing is lost for clusters either: a reconcile whose publish was lost, or whose worker was
SIGKILLed mid-run, is queued again by the sweep (real worker, PostgreSQL, Redis, simulator)."""

import time

import pytest
from kombu.exceptions import OperationalError

from tenants import tasks
from tenants.choices import ClusterState
from tenants.models import VirtualCluster
from tests.conftest import TEST_LEASE_SECONDS
from tests.vsphere import test_reconcile_e2e as e2e
from vsphere import tasks as vsphere_tasks

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]
site = e2e.site  # the fixture: a discovered vCenter on this test's own simulator
SETTLE, approved_cluster = e2e.SETTLE, e2e.approved_cluster
S = ClusterState


def _unreachable(*args, **kwargs):
    raise OperationalError("Error 111 connecting to the broker. Connection refused.")


def sweep_until_ready(cluster, wait_for) -> None:
    def ready():
        tasks.sweep_clusters()  # as beat does every 30 s; here every second
        cluster.refresh_from_db()
        return cluster.state == S.READY

    assert wait_for(ready, SETTLE, interval=1.0), f"{cluster.state}: {cluster.status_message}"


def test_an_approval_whose_publish_was_lost_is_realized_after_a_sweep(
    celery_worker,
    site,
    make_user,
    wait_for,
    monkeypatch,
    settings,
):
    settings.LEASE_SECONDS = TEST_LEASE_SECONDS
    with monkeypatch.context() as broker_down:
        broker_down.setattr(vsphere_tasks.reconcile_cluster, "delay", _unreachable)
        cluster, _owner = approved_cluster(make_user, workers=1)
    time.sleep(3)
    cluster.refresh_from_db()
    assert cluster.state == S.APPROVED and cluster.observed_generation != cluster.generation
    sweep_until_ready(cluster, wait_for)
    assert cluster.observed_generation == cluster.generation


def test_a_reconcile_killed_mid_run_is_resumed_after_a_sweep(
    celery_worker,
    site,
    make_user,
    wait_for,
    settings,
):
    settings.LEASE_SECONDS = TEST_LEASE_SECONDS
    cluster, _owner = approved_cluster(make_user, workers=2)
    assert wait_for(lambda: VirtualCluster.objects.get(pk=cluster.pk).state == S.PROVISIONING, SETTLE)
    celery_worker.kill()  # mid-run: its Redis lock and lease lapse, its message stays unacked
    celery_worker.start()
    time.sleep(3)
    cluster.refresh_from_db()
    assert cluster.state == S.PROVISIONING  # nothing resumes it by itself (visibility timeout: 600 s)
    sweep_until_ready(cluster, wait_for)
