"""Pools and segments on real PostgreSQL: next-free, explicit requests, no collisions ever."""

import threading

import pytest
from django.db import IntegrityError, connection, transaction

from audit.models import AuditEvent
from core.errors import InvalidRequest
from netpolicy import allocation, segments
from netpolicy.allocation import PoolExhausted
from netpolicy.models import Pool, Segment
from tenants import services

pytestmark = pytest.mark.django_db


def make_pools(admin, vlans=(100, 199), supernet="10.64.0.0/16", plen=24):
    vlan = allocation.create_pool(admin, {"name": "vlans", "kind": "vlan", "first": vlans[0], "last": vlans[1]})
    vni = allocation.create_pool(admin, {"name": "vnis", "kind": "vni", "first": 5000, "last": 5999})
    v4 = allocation.create_pool(admin, {"name": "v4", "kind": "ipv4", "cidr": supernet, "default_prefix_length": plen})
    return vlan, vni, v4


def raise_quota(tenant, count=100):
    services.update_quota(tenant.quota, max_segments=count)


def test_segments_get_the_next_free_vlan_and_subnet(world):
    make_pools(world.admin)
    raise_quota(world.tenant_a)
    first = segments.create_segment(world.tenant_a, world.admin, {"name": "s1", "kind": "vlan"})
    second = segments.create_segment(world.tenant_a, world.admin, {"name": "s2", "kind": "vlan"})
    assert (first.vlan_id, first.subnet, first.gateway) == (100, "10.64.0.0/24", "10.64.0.1")
    assert (second.vlan_id, second.subnet) == (101, "10.64.1.0/24")
    assert first.mtu == 9000 and first.state == "approved"


def test_a_freed_id_is_reused_first(world):
    make_pools(world.admin)
    raise_quota(world.tenant_a)
    first = segments.create_segment(world.tenant_a, world.admin, {"name": "s1", "kind": "vlan"})
    segments.create_segment(world.tenant_a, world.admin, {"name": "s2", "kind": "vlan"})
    segments.transition_segment(first, world.admin, "retire", "retired")
    third = segments.create_segment(world.tenant_a, world.admin, {"name": "s3", "kind": "vlan"})
    assert (third.vlan_id, third.subnet) == (100, "10.64.0.0/24")


def test_an_overlay_gets_a_vni_and_reports_its_effective_mtu(world):
    make_pools(world.admin)
    seg = segments.create_segment(world.tenant_a, world.member_a, {"name": "ov", "kind": "overlay", "mtu": 2044})
    assert seg.vni == 5000 and seg.vlan_id is None and seg.state == "requested"
    assert seg.effective_mtu == 1994
    assert "IPoIB datagram mode (2044) use at most 1994" in seg.mtu_warning


def test_an_exhausted_pool_is_named_in_the_error(world):
    make_pools(world.admin, vlans=(10, 11))
    raise_quota(world.tenant_a)
    for name in ("a", "b"):
        segments.create_segment(world.tenant_a, world.admin, {"name": name, "kind": "vlan"})
    with pytest.raises(PoolExhausted, match="Pool vlans is exhausted: all 2 ids are in use"):
        segments.create_segment(world.tenant_a, world.admin, {"name": "c", "kind": "vlan"})


def test_an_exhausted_address_pool_is_named_in_the_error(world):
    make_pools(world.admin, supernet="10.64.0.0/23", plen=24)
    raise_quota(world.tenant_a)
    for name in ("a", "b"):
        segments.create_segment(world.tenant_a, world.admin, {"name": name, "kind": "vlan"})
    with pytest.raises(PoolExhausted, match="Pool v4 is exhausted: no free /24 left"):
        segments.create_segment(world.tenant_a, world.admin, {"name": "c", "kind": "vlan"})


def test_explicit_ids_and_subnets_are_validated(world):
    make_pools(world.admin)
    raise_quota(world.tenant_a)
    raise_quota(world.tenant_b)
    seg = segments.create_segment(
        world.tenant_a, world.admin, {"name": "x", "kind": "vlan", "vlan_id": 150, "subnet": "10.64.8.0/22"}
    )
    assert (seg.vlan_id, seg.subnet, seg.gateway) == (150, "10.64.8.0/22", "10.64.8.1")
    cases = [
        ({"vlan_id": 150}, "vlan_id 150 is already in use in pool vlans"),
        ({"vlan_id": 300}, "vlan_id 300 is outside every usable pool"),
        ({"subnet": "10.64.9.0/24"}, "overlaps an existing segment"),
        ({"subnet": "192.168.0.0/24"}, "outside every usable address pool"),
        ({"subnet": "10.64.1.1/24"}, "has host bits set"),
        ({"subnet": "10.64.1.0/33"}, "is not a network"),
        ({"subnet": "10.64.1.0/24", "gateway": "10.64.2.1"}, "is not a host address"),
    ]
    for extra, message in cases:
        with pytest.raises(InvalidRequest, match=message):
            segments.create_segment(world.tenant_b, world.admin, {"name": "y", "kind": "vlan", **extra})
    assert Segment.objects.count() == 1


def test_a_pool_reserved_for_another_tenant_is_refused(world):
    make_pools(world.admin)
    reserved = allocation.create_pool(
        world.admin, {"name": "b-only", "kind": "vlan", "first": 300, "last": 310, "tenant": world.tenant_b}
    )
    with pytest.raises(InvalidRequest, match="Pool b-only is reserved for another tenant"):
        segments.create_segment(world.tenant_a, world.admin, {"name": "s", "kind": "vlan", "id_pool": reserved})
    seg = segments.create_segment(world.tenant_b, world.admin, {"name": "s", "kind": "vlan"})
    assert seg.id_pool == reserved and seg.vlan_id == 300


def test_overlapping_pools_are_refused(world):
    make_pools(world.admin)
    with pytest.raises(InvalidRequest, match="overlaps an existing vlan pool"):
        allocation.create_pool(world.admin, {"name": "more", "kind": "vlan", "first": 150, "last": 250})
    with pytest.raises(InvalidRequest, match="overlaps an existing ipv4 pool"):
        allocation.create_pool(world.admin, {"name": "sub", "kind": "ipv4", "cidr": "10.64.128.0/17"})


def test_the_database_refuses_overlapping_subnets_and_shared_vlans(world):
    vlan, _, v4 = make_pools(world.admin)
    common = {"tenant": world.tenant_a, "kind": "vlan", "id_pool": vlan, "prefix_pool": v4, "gateway": "10.64.0.1"}
    Segment.objects.create(name="a", vlan_id=100, subnet="10.64.0.0/24", **common)
    for name, vlan_id, subnet in (("b", 101, "10.64.0.128/25"), ("c", 100, "10.64.5.0/24")):
        with pytest.raises(IntegrityError), transaction.atomic():
            Segment.objects.create(name=name, vlan_id=vlan_id, subnet=subnet, **common)


@pytest.mark.parametrize("first,last", [(0, 10), (4000, 4095)])
def test_the_database_refuses_vlan_pools_outside_1_to_4094(world, first, last):
    with pytest.raises(IntegrityError), transaction.atomic():
        Pool.objects.create(name="bad", kind="vlan", first=first, last=last)


def test_pool_usage_counts_used_and_free(world):
    vlan, _, v4 = make_pools(world.admin)
    segments.create_segment(world.tenant_a, world.admin, {"name": "s", "kind": "vlan"})
    assert allocation.pool_usage(vlan) == {"size": 100, "used": 1, "free": 99}
    assert allocation.pool_usage(v4) == {"size": 256, "used": 1, "free": 255}


def test_segment_changes_are_audited(world):
    make_pools(world.admin)
    seg = segments.create_segment(world.tenant_a, world.member_a, {"name": "s", "kind": "vlan"})
    segments.transition_segment(seg, world.admin, "approve", "approved")
    actions = list(
        AuditEvent.objects.filter(object_type="netpolicy.segment").order_by("id").values_list("action", flat=True)
    )
    assert actions == ["segment.create", "segment.approve"]


@pytest.mark.django_db(transaction=True)
def test_fifty_concurrent_allocations_never_collide(world):
    make_pools(world.admin, vlans=(1, 4094), supernet="10.128.0.0/12", plen=26)
    raise_quota(world.tenant_a, 200)
    results, errors = [], []

    def allocate(i):
        try:
            seg = segments.create_segment(world.tenant_a, world.admin, {"name": f"c{i}", "kind": "vlan"})
            results.append((seg.vlan_id, seg.subnet))
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=allocate, args=(i,)) for i in range(60)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(results) == 60
    assert len({v for v, _ in results}) == 60 and len({s for _, s in results}) == 60
    assert Segment.objects.count() == 60


@pytest.mark.django_db(transaction=True)
def test_sixteen_tenants_allocating_at_once_take_the_lowest_free_ids_without_waiting(world):
    make_pools(world.admin, vlans=(1, 4094), supernet="10.128.0.0/12", plen=26)
    tenants = [services.create_tenant(f"t{i}", f"T{i}") for i in range(16)]
    for tenant in tenants:
        raise_quota(tenant, 20)
    results, errors = [], []

    def allocate(tenant):
        try:
            for n in range(4):
                seg = segments.create_segment(tenant, world.admin, {"name": f"s{n}", "kind": "vlan"})
                results.append((seg.vlan_id, seg.subnet))
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(str(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=allocate, args=(t,)) for t in tenants]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert sorted(v for v, _ in results) == list(range(1, 65))  # distinct, and no gaps left behind
    assert len({s for _, s in results}) == 64


def test_a_next_free_value_committed_by_another_allocation_is_retried_with_the_next(world, monkeypatch):
    make_pools(world.admin, vlans=(1, 4094), supernet="10.128.0.0/12", plen=26)
    first = segments.create_segment(world.tenant_a, world.admin, {"name": "one", "kind": "vlan"})
    real = segments.free_ids

    def read_before_that_commit(pool, column):  # a read taken before `first` committed
        yield first.vlan_id
        yield from real(pool, column)

    monkeypatch.setattr(segments, "free_ids", read_before_that_commit)
    second = segments.create_segment(world.tenant_a, world.admin, {"name": "two", "kind": "vlan"})
    assert second.vlan_id == first.vlan_id + 1


def test_tenants_without_a_policy_get_the_default_one_once(world):
    from django.core.management import call_command

    from netpolicy.models import FirewallPolicy

    FirewallPolicy.objects.filter(tenant=world.tenant_a).delete()
    call_command("ensure_default_policies")
    call_command("ensure_default_policies")
    assert FirewallPolicy.objects.filter(tenant=world.tenant_a, name="isolation").count() == 1
