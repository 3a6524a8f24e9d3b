"""VF capacity in PostgreSQL: allocation under concurrency, trigger-enforced limits, firmware rule."""

import datetime
import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from core.errors import Conflict, InvalidRequest, NotOffered, QuotaExceeded
from tenants import services
from tenants.choices import ClusterState
from tenants.models import VirtualCluster
from tests.vsphere.sites import ensure_pools
from vsphere import allocation
from vsphere.models import Host, PhysicalFunction, VCenter, VFAssignment

APPROVERS = 20


def site(max_vfs=8) -> tuple[VCenter, PhysicalFunction]:
    ensure_pools()
    vcenter = VCenter.objects.create(
        name="site", host="127.0.0.1", username="u", password="p", datacenter="DC0",
        compute_cluster="DC0_C0", template="hpc-template",
    )  # fmt: skip
    host = Host.objects.create(vcenter=vcenter, name="esx-01", compute_cluster="DC0_C0")
    pf = PhysicalFunction.objects.create(
        host=host, pci_id="0000:3b:00.0", pnic="vmnic2", firmware_num_vfs=16, max_vfs=max_vfs
    )
    return vcenter, pf


def endorsed_cluster(make_user, n: int, **overrides):
    owner = make_user(f"pi-{n}")
    tenant = services.create_tenant(f"lab-{n}", f"Lab {n}", owner=owner)
    data = {
        "name": "mpi", "workload_class": "parallel-distributed", "worker_count": 1, "vcpus_per_node": 4,
        "memory_gb_per_node": 8, "login_node": False, "interconnect": "sriov-ib", "network_mode": "vlan",
        "data_path": "standard", "lease_end": timezone.localdate() + datetime.timedelta(days=30),
        "justification": "benchmarks",
    }  # fmt: skip
    data.update(overrides)
    return services.create_cluster(tenant, owner, data, submit=True)


@pytest.mark.django_db(transaction=True)
def test_20_parallel_approvals_for_8_vfs_grant_exactly_8(make_user, reconcile_held):
    site(max_vfs=8)
    admin = make_user("site-admin", staff=True)
    clusters = [endorsed_cluster(make_user, n) for n in range(APPROVERS)]  # 2 VFs each
    outcomes, barrier = [], threading.Barrier(APPROVERS)

    def approve(cluster):
        try:
            barrier.wait()
            services.approve_cluster(cluster, admin)
            outcomes.append("approved")
        except Conflict:
            outcomes.append("refused")
        finally:
            connection.close()

    threads = [threading.Thread(target=approve, args=(c,)) for c in clusters]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert VFAssignment.objects.count() == 8
    assert outcomes.count("approved") == 4 and outcomes.count("refused") == 16
    approved = {a.cluster_id for a in VFAssignment.objects.all()}
    approved_states = VirtualCluster.objects.filter(state=ClusterState.APPROVED)
    assert set(approved_states.values_list("pk", flat=True)) == approved


@pytest.mark.django_db
def test_the_database_refuses_a_slot_beyond_the_pfs_enabled_vfs(make_user):
    _vcenter, pf = site(max_vfs=2)
    cluster = endorsed_cluster(make_user, 1)
    with pytest.raises(IntegrityError), transaction.atomic():
        VFAssignment.objects.create(pf=pf, slot=2, cluster=cluster, node_name="x")
    VFAssignment.objects.create(pf=pf, slot=1, cluster=cluster, node_name="x")
    with pytest.raises(IntegrityError), transaction.atomic():
        PhysicalFunction.objects.filter(pk=pf.pk).update(max_vfs=1)


@pytest.mark.django_db
def test_the_same_slot_cannot_be_handed_out_twice(make_user):
    _vcenter, pf = site()
    a, b = endorsed_cluster(make_user, 1), endorsed_cluster(make_user, 2)
    VFAssignment.objects.create(pf=pf, slot=0, cluster=a, node_name="a")
    with pytest.raises(IntegrityError), transaction.atomic():
        VFAssignment.objects.create(pf=pf, slot=0, cluster=b, node_name="b")


@pytest.mark.django_db
def test_firmware_must_reserve_one_vf_for_the_pf(make_user):
    _vcenter, pf = site(max_vfs=8)
    sibling = PhysicalFunction(host=pf.host, pci_id="0000:3b:00.1", pnic="vmnic3", firmware_num_vfs=16, max_vfs=8)
    with pytest.raises(ValidationError, match="at least 17"):
        sibling.full_clean()
    sibling.max_vfs = 7  # the paper's max_vfs=0,0,8,7 with NUM_OF_VFS=16
    sibling.full_clean()


@pytest.mark.django_db
def test_allocation_is_idempotent_and_released_on_decommission(make_user):
    vcenter, _pf = site()
    cluster = endorsed_cluster(make_user, 1, worker_count=3)
    first = allocation.allocate(cluster, vcenter)
    assert [a.pk for a in allocation.allocate(cluster, vcenter)] == [a.pk for a in first]
    assert len(first) == 4 and sorted(a.slot for a in first) == [0, 1, 2, 3]
    assert allocation.capacity(vcenter)[0]["free"] == 4
    assert allocation.release(cluster) == 4


@pytest.mark.django_db
def test_an_overlay_cluster_on_a_vsphere_site_is_refused_at_submit_and_at_approval_with_the_reason(make_user):
    admin = make_user("site-admin", staff=True)
    earlier = endorsed_cluster(make_user, 1, network_mode="overlay")  # submitted before the site was registered
    site()
    with pytest.raises(NotOffered, match="NSX"):
        endorsed_cluster(make_user, 2, network_mode="overlay")
    with pytest.raises(NotOffered, match="NSX"):
        services.approve_cluster(earlier, admin)
    assert VFAssignment.objects.count() == 0


@pytest.mark.django_db
def test_a_refused_approval_leaves_no_vfs_taken(make_user):
    site(max_vfs=8)
    admin = make_user("site-admin", staff=True)
    cluster = endorsed_cluster(make_user, 99, worker_count=3)
    services.update_quota(cluster.tenant.quota, max_nodes=2)  # approval re-checks quota and fails
    with pytest.raises(QuotaExceeded):
        services.approve_cluster(cluster, admin)
    assert VFAssignment.objects.filter(cluster=cluster).count() == 0
    assert VirtualCluster.objects.get(pk=cluster.pk).state == ClusterState.ENDORSED


@pytest.mark.django_db
def test_approval_gives_each_tenant_its_own_vlan_segment(make_user):
    from netpolicy.models import Segment

    site(max_vfs=8)
    admin = make_user("site-admin", staff=True)
    first, second = endorsed_cluster(make_user, 1), endorsed_cluster(make_user, 2)
    services.approve_cluster(first, admin)
    services.approve_cluster(second, admin)
    vlans = {c.tenant_id: Segment.objects.get(tenant=c.tenant, kind="vlan").vlan_id for c in (first, second)}
    assert len(set(vlans.values())) == 2, "two tenants must never share a VLAN"
    data = {f: getattr(first, f) for f in services.EDITABLE_FIELDS} | {"name": "mpi-2"}
    again = services.create_cluster(first.tenant, first.requested_by, data, submit=True)
    services.approve_cluster(again, admin)  # a second cluster of the tenant reuses its segment
    assert Segment.objects.filter(tenant=first.tenant, kind="vlan").count() == 1


@pytest.mark.django_db
def test_approval_without_a_vlan_pool_is_refused_with_the_reason(make_user):
    VCenter.objects.create(name="bare", host="127.0.0.1", username="u", password="p", datacenter="DC0",
                           compute_cluster="DC0_C0", template="hpc-template")  # fmt: skip
    admin = make_user("site-admin", staff=True)
    cluster = endorsed_cluster(make_user, 7, interconnect="none")
    with pytest.raises(InvalidRequest, match="No vlan pool"):
        services.approve_cluster(cluster, admin)
    assert VirtualCluster.objects.get(pk=cluster.pk).state == ClusterState.ENDORSED


@pytest.mark.django_db
def test_resizing_beyond_the_free_vfs_is_refused_and_changes_nothing(make_user):
    site(max_vfs=6)
    admin = make_user("site-admin", staff=True)
    cluster = services.approve_cluster(endorsed_cluster(make_user, 5, worker_count=1), admin)  # 2 VFs
    services.approve_cluster(endorsed_cluster(make_user, 6, worker_count=1), admin)  # 2 more: 2 left free
    with pytest.raises(Conflict, match="Not enough free SR-IOV VFs"):
        services.resize_cluster(cluster, admin, worker_count=4)  # would need 3 more
    assert VirtualCluster.objects.get(pk=cluster.pk).worker_count == 1
    assert VFAssignment.objects.filter(cluster=cluster).count() == 2
    with pytest.raises(NotOffered, match="needs 8 VFs; this site has 6 in all"):
        services.resize_cluster(cluster, admin, worker_count=7)
    services.resize_cluster(cluster, admin, worker_count=3)
    assert VFAssignment.objects.filter(cluster=cluster).count() == 4
