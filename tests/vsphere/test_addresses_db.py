"""Approval and resize take every NIC's address in the same transaction; parallel approvals never share one."""

import datetime
import threading

import pytest
from django.db import connection
from django.utils import timezone

from netpolicy import segments
from netpolicy.models import Address, AddressState, Segment
from tenants import services
from tests.vsphere.sites import capacity_site
from vsphere.models import VCenter

APPROVERS = 20


def endorsed(tenant, owner, name, **overrides):
    data = {
        "name": name, "workload_class": "high-throughput", "worker_count": 1, "vcpus_per_node": 2,
        "memory_gb_per_node": 4, "login_node": True, "interconnect": "none", "network_mode": "vlan",
        "data_path": "standard", "lease_end": timezone.localdate() + datetime.timedelta(days=30),
        "justification": "address race",
    }  # fmt: skip
    return services.create_cluster(tenant, owner, data | overrides, submit=True)


@pytest.mark.django_db(transaction=True)
def test_20_parallel_approvals_in_one_segment_never_share_an_address(make_user, reconcile_held):
    vcenter, _pfs = capacity_site()
    admin, owner = make_user("site-admin", staff=True), make_user("pi")
    tenant = services.create_tenant("lab", "Lab", owner=owner)
    services.update_quota(tenant.quota, max_nodes=100, max_vcpus=1000, max_memory_gb=1000, max_segments=100)
    segments.create_segment(tenant, admin, {"name": "net", "kind": "vlan", "vsphere_cluster": vcenter.compute_cluster})
    clusters = [endorsed(tenant, owner, f"c{n}") for n in range(APPROVERS)]
    outcomes, barrier = [], threading.Barrier(APPROVERS)

    def approve(cluster):
        try:
            barrier.wait()
            services.approve_cluster(cluster, admin)
            outcomes.append("approved")
        except Exception as exc:  # reported below, never hidden
            outcomes.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=approve, args=(c,)) for c in clusters]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outcomes == ["approved"] * APPROVERS
    addresses = list(Address.objects.values_list("address", flat=True))
    assert len(addresses) == APPROVERS * 3 and len(set(addresses)) == len(addresses)  # login, mgr, w01 each
    assert Segment.objects.filter(tenant=tenant).count() == 1


@pytest.mark.django_db
def test_approval_gives_each_nic_an_address_and_a_resize_adds_the_new_nodes_ones(world, reconcile_held):
    capacity_site()
    cluster = endorsed(world.tenant_a, world.owner_a, "mpi", interconnect="sriov-ib", worker_count=2)
    cluster = services.approve_cluster(cluster, world.admin)
    held = {(a.node_name, a.nic) for a in Address.objects.filter(cluster=cluster)}
    base = "tenant-a-mpi"
    assert held == {(f"{base}-login", "primary"), (f"{base}-mgr", "primary"), (f"{base}-mgr", "sriov"),
                    (f"{base}-w01", "primary"), (f"{base}-w01", "sriov"), (f"{base}-w02", "primary"),
                    (f"{base}-w02", "sriov")}  # fmt: skip
    assert all(a.segment_id == cluster.placement.segment_id for a in Address.objects.filter(cluster=cluster))
    services.resize_cluster(cluster, world.owner_a, worker_count=3)
    assert Address.objects.filter(cluster=cluster, node_name=f"{base}-w03").count() == 2
    assert Address.objects.filter(state=AddressState.COOLING).count() == 0  # released only after converge


@pytest.mark.django_db
def test_a_segment_without_room_refuses_the_approval_and_takes_nothing(world, reconcile_held):
    from netpolicy import allocation

    VCenter.objects.all().delete()
    capacity_site()
    allocation.create_pool(world.admin, {"name": "tiny", "kind": "ipv4", "cidr": "10.99.0.0/29",
                                         "tenant": world.tenant_a, "default_prefix_length": 30})  # fmt: skip
    cluster = endorsed(world.tenant_a, world.owner_a, "big", worker_count=3)
    with pytest.raises(services.Conflict, match="has no free address left"):
        services.approve_cluster(cluster, world.admin)
    cluster.refresh_from_db()
    assert cluster.state == "endorsed" and not Address.objects.exists()
