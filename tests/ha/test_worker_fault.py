"""A worker SIGKILLed under the shared load (tests/ha/load.py): its work is redelivered or swept, done once.

Approvals as a site admin, site-wide rule changes and node polls run through a real web process; the worker
is SIGKILLed mid-way and another started. On the vSphere simulator, a worker SIGKILLed in the middle of a
cluster's reconcile (no duplicate VM, no lost VF) is tests/vsphere/test_reconcile_e2e.py's.
"""

import pytest

from tenants.models import VirtualCluster
from tests.ha.load import Load, Portal, check, seed, settle
from tests.ha.sentinel import wait_for


@pytest.mark.django_db(transaction=True)
def test_every_acknowledged_write_is_realized_once_after_the_worker_is_killed_under_load(world, tmp_path, redis_client):
    redis_client.flushdb()  # no message another test left for a worker
    portal = Portal(tmp_path, {})
    try:
        site = seed(world)  # while the portal boots
        assert portal.wait_ready(), portal.tail()
        load = Load(portal.base, site)
        load.start()
        assert wait_for(lambda: len(load.record.approved) >= 1 or load.error, 120) and not load.error, portal.tail()
        assert portal.restart_worker(), portal.tail()
        at_kill = load.rounds
        done = lambda: len(load.record.approved) == len(site.clusters) and load.rounds >= at_kill + 5  # noqa: E731
        assert wait_for(lambda: done() or load.error, 120) and not load.error, (load.error, portal.tail())
        record = load.stop()
        assert settle(portal, load, record) == [], portal.tail()
        # Negative control: the check reports an acknowledged approval the worker never reconciled.
        record.approved.append(VirtualCluster.objects.order_by("-pk").values_list("pk", flat=True).first() + 1)
        assert [problem for problem in check(record) if "realized False" in problem]
    finally:
        portal.stop()
