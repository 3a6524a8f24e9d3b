"""Partition keys in PostgreSQL: next-free per fabric, never two holders, cooled before reuse, safe under threads."""

import datetime
import threading

import pytest
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from fabrics import allocation
from fabrics.models import Fabric, PartitionKey
from tenants import services


def _fabric(**fields) -> Fabric:
    return Fabric.objects.create(**{"name": "ib0", "pkey_first": 0x10, "pkey_last": 0x20, **fields})


def test_tenants_get_the_lowest_free_keys_skipping_the_site_reserved_ones(world):
    fabric = _fabric(reserved_pkeys=[0x10, 0x12])
    a = allocation.allocate(fabric, world.tenant_a.pk)
    b = allocation.allocate(fabric, world.tenant_b.pk)
    assert (a.pkey, b.pkey) == (0x11, 0x13)
    assert allocation.allocate(fabric, world.tenant_a.pk).pk == a.pk  # idempotent per tenant


def test_a_released_key_is_not_handed_out_again_before_its_cooldown(world):
    fabric = _fabric(cooldown_minutes=60)
    first = allocation.allocate(fabric, world.tenant_a.pk)
    allocation.release(fabric, world.tenant_a.pk)
    assert allocation.allocate(fabric, world.tenant_b.pk).pkey == first.pkey + 1


def test_a_key_whose_cooldown_ended_is_reused(world):
    fabric = _fabric(cooldown_minutes=0)
    first = allocation.allocate(fabric, world.tenant_a.pk)
    allocation.release(fabric, world.tenant_a.pk)
    assert allocation.allocate(fabric, world.tenant_b.pk).pkey == first.pkey


def test_the_database_refuses_a_second_holder_of_a_cooling_key(world):
    fabric = _fabric(cooldown_minutes=60)
    key = allocation.allocate(fabric, world.tenant_a.pk)
    allocation.release(fabric, world.tenant_a.pk)
    with pytest.raises(IntegrityError), transaction.atomic():
        PartitionKey.objects.create(fabric=fabric, tenant=world.tenant_b, pkey=key.pkey, allocated=timezone.now())


def test_the_database_refuses_two_live_keys_for_one_tenant(world):
    fabric = _fabric()
    allocation.allocate(fabric, world.tenant_a.pk)
    with pytest.raises(IntegrityError), transaction.atomic():
        PartitionKey.objects.create(fabric=fabric, tenant=world.tenant_a, pkey=0x1F, allocated=timezone.now())


def test_the_database_refuses_the_default_key_and_keys_out_of_15_bits(world):
    fabric = _fabric()
    for value in (0, 0x7FFF, 0x8012):
        with pytest.raises(IntegrityError), transaction.atomic():
            PartitionKey.objects.create(fabric=fabric, tenant=world.tenant_a, pkey=value, allocated=timezone.now())


def test_an_exhausted_range_is_a_409(world):
    fabric = _fabric(pkey_first=0x10, pkey_last=0x10)
    allocation.allocate(fabric, world.tenant_a.pk)
    with pytest.raises(allocation.PoolExhausted):
        allocation.allocate(fabric, world.tenant_b.pk)


def test_allocation_and_release_are_audited(world):
    from audit.models import AuditEvent

    fabric = _fabric()
    allocation.allocate(fabric, world.tenant_a.pk)
    allocation.release(fabric, world.tenant_a.pk)
    actions = list(AuditEvent.objects.filter(action__startswith="partition.").values_list("action", flat=True))
    assert sorted(actions) == ["partition.allocate", "partition.release"]


@pytest.mark.django_db(transaction=True)
def test_thirty_tenants_allocating_at_once_get_thirty_distinct_keys(world):
    fabric = _fabric(pkey_first=0x100, pkey_last=0x1FF)
    tenants = [services.create_tenant(f"t{i}", f"T{i}") for i in range(30)]
    results, errors = [], []

    def take(tenant):
        try:
            results.append(allocation.allocate(fabric, tenant.pk).pkey)
            results.append(allocation.allocate(fabric, tenant.pk).pkey)  # a second call returns the same key
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=take, args=(t,)) for t in tenants]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert sorted(set(results)) == list(range(0x100, 0x100 + 30))
    assert PartitionKey.objects.filter(released__isnull=True).count() == 30


@pytest.mark.django_db(transaction=True)
def test_released_and_new_tenants_racing_never_share_a_key(world):
    fabric = _fabric(pkey_first=0x100, pkey_last=0x1FF, cooldown_minutes=30)
    tenants = [services.create_tenant(f"r{i}", f"R{i}") for i in range(12)]
    for tenant in tenants[:6]:
        allocation.allocate(fabric, tenant.pk)
    errors = []

    def churn(tenant, i):
        try:
            if i < 6:
                allocation.release(fabric, tenant.pk)
            else:
                allocation.allocate(fabric, tenant.pk)
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=churn, args=(t, i)) for i, t in enumerate(tenants)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    keys = list(PartitionKey.objects.values_list("pkey", flat=True))
    assert len(keys) == len(set(keys)) == 12  # the cooling keys were not handed to the new tenants
    assert all(k.reusable_after - k.released == datetime.timedelta(minutes=30)
               for k in PartitionKey.objects.filter(released__isnull=False))  # fmt: skip
