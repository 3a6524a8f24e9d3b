"""Nothing is lost: a publish lost after commit, or a worker SIGKILLed mid-task, is resumed by the
periodic sweep within its lease and interval, not after the broker's visibility timeout."""

import time

import pytest
from django.db import connections
from kombu.exceptions import OperationalError

from agents import refresh, services, tasks
from agents.models import PoolDocument
from netpolicy import allocation, policy, rules, segments
from netpolicy.models import FirewallPolicy, Service, SiteSettings
from tenants import network
from tenants.models import Tenant
from tests.conftest import TEST_LEASE_SECONDS

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]
RESUME = 90  # seconds: lease + sweeps on a loaded 2-core machine


@pytest.fixture
def placed(world, settings, monkeypatch):
    """Tenant A on a node pool with one node; documents compiled in-process; short leases here.

    Requested before `celery_worker` (which empties the broker) and queueing nothing itself: a
    setup task reaching a slow worker after the test's own change would catch the tenant up,
    which the tests below say nothing but the sweep does."""
    settings.LEASE_SECONDS = TEST_LEASE_SECONDS
    with monkeypatch.context() as quiet:
        quiet.setattr(network.current_app, "send_task", lambda *args, **kwargs: None)
        return _place(world)


def _place(world):
    """The pool, its node and tenant A's overlay segment, compiled in-process."""
    allocation.create_pool(world.admin, {"name": "vnis", "kind": "vni", "first": 5000, "last": 5999})
    allocation.create_pool(world.admin, {"name": "v4", "kind": "ipv4", "cidr": "10.200.0.0/16",
                                         "default_prefix_length": 24})  # fmt: skip
    pool = services.create_pool("rack")
    services.add_subnet(pool, "10.10.0.0/24", 4790)
    _, raw = services.create_join_token(pool)
    services.join(raw, "n1", {}, [{"name": "em1", "address": "10.10.0.5/24"}])
    segments.create_segment(world.tenant_a, world.admin, {"name": "uvn", "kind": "overlay", "node_pool": pool})
    refresh.refresh()
    return pool


def digest(pool) -> str:
    return PoolDocument.objects.get(pool=pool).digest


def behind(tenant) -> bool:
    tenant.refresh_from_db()
    return tenant.network_generation != tenant.network_observed_generation


def disable_intra_tenant_rule(world):
    rule = FirewallPolicy.objects.get(tenant=world.tenant_a, name="isolation").rules.get(name="intra_tenant")
    rules.save_rule(world.admin, {"enabled": False}, rule)


def sweep_until(done, wait_for) -> float:
    """Run the sweep as beat would (here every second) until done(); seconds it took."""
    start = time.monotonic()
    assert wait_for(lambda: tasks.sweep() is not None and done(), RESUME, interval=1.0)
    return time.monotonic() - start


def test_a_lost_publish_is_queued_again_by_the_sweep(placed, celery_worker, world, wait_for, monkeypatch):
    before = digest(placed)
    with monkeypatch.context() as broker_down:  # the publish after commit fails (logged, not raised)
        broker_down.setattr(network.current_app, "send_task", _unreachable)
        disable_intra_tenant_rule(world)
    tenant = world.tenant_a
    time.sleep(2)
    assert behind(tenant) and digest(placed) == before  # nothing queued it
    sweep_until(lambda: not behind(tenant), wait_for)
    assert digest(placed) != before


def test_a_lost_site_refresh_is_queued_again_by_the_sweep(placed, celery_worker, world, wait_for, monkeypatch):
    before = digest(placed)
    with monkeypatch.context() as broker_down:  # the publish after commit fails (logged, not raised)
        broker_down.setattr(network.current_app, "send_task", _unreachable)
        policy.save_service(world.admin, {"ports": "2200-2222"}, Service.objects.get(name="ssh"))
    time.sleep(2)
    assert site_behind() and digest(placed) == before  # nothing queued it
    sweep_until(lambda: not site_behind(), wait_for)
    assert digest(placed) != before and "2200-2222" in PoolDocument.objects.get(pool=placed).nftables
    assert not behind(world.tenant_a)  # a site change leaves the tenants as they were


def site_behind() -> bool:
    row = SiteSettings.objects.get(pk=1)
    return row.network_generation != row.network_observed_generation


def test_a_worker_killed_mid_compile_is_resumed_by_the_sweep(placed, celery_worker, world, wait_for):
    before, tenant = digest(placed), world.tenant_a
    blocker = connections.create_connection("default")  # holds the tenant's compile lock
    blocker.ensure_connection()
    key = [refresh.LOCK_SPACE, tenant.pk % refresh.BUCKETS]
    with blocker.connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(%s, %s)", key)
    try:
        disable_intra_tenant_rule(world)  # commits; the worker takes the task and waits for the lock
        assert wait_for(lambda: _waiting_for_advisory_lock(blocker), 60), celery_worker.log_path.read_text()[-2000:]
        celery_worker.kill()
    finally:
        with blocker.connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s, %s)", key)
        blocker.close()
    celery_worker.start()
    time.sleep(2)
    assert behind(tenant) and digest(placed) == before  # the killed task's message is not redelivered
    took = sweep_until(lambda: not behind(tenant), wait_for)
    assert digest(placed) != before and Tenant.objects.get(pk=tenant.pk).network_observed_generation > 0
    print(f"resumed {took:.1f}s after the worker was replaced")


def _unreachable(*args, **kwargs):
    raise OperationalError("Error 111 connecting to the broker. Connection refused.")


def _waiting_for_advisory_lock(blocker) -> bool:
    with blocker.connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")
        return cursor.fetchone()[0] > 0
