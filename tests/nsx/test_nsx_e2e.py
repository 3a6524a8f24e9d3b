"""Issue 11 end to end: an overlay cluster on a vSphere site with NSX, through the real worker and both simulators."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from core.errors import ServiceError
from netpolicy.choices import SegmentState
from netpolicy.models import FirewallPolicy, Pool, Service
from netpolicy.rules import save_rule
from nsx import realize
from nsx import services as nsx_services
from nsx import tasks as nsx_tasks
from nsx.choices import CheckResult, Realization
from nsx.models import AppliedState, NsxObject
from tenants import services
from tenants.choices import ClusterState
from tests.nsx.nsxsim import NsxSim, free_port
from tests.vsphere.sites import ensure_pools
from vsphere.models import VCenter
from vsphere.naming import node_names
from vsphere.reconcile import discovery
from vsphere.vim.driver import Driver

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]
S = ClusterState
SETTLE = 150
INFRA = "PATCH /policy/api/v1/infra"


@pytest.fixture
def site(own_vcsim, make_user, tmp_path):
    """A discovered vCenter whose switch the site prepared for NSX, and the NSX stand-in wired to it."""
    ensure_pools()
    Pool.objects.get_or_create(name="geneve", kind="vni", defaults={"first": 70000, "last": 70999})
    vcenter = VCenter.objects.create(
        name="sim", host="127.0.0.1", port=own_vcsim.port, username=own_vcsim.info["user"],
        password=own_vcsim.info["password"], ca_bundle=own_vcsim.ca_file, datacenter="DC0",
        compute_cluster="DC0_C0", template="hpc-template",
    )  # fmt: skip
    discovery.discover(vcenter)
    hosts = list(vcenter.hosts.values_list("name", flat=True))
    with Driver(own_vcsim.config()) as drv:  # NSX places segments' port groups on a switch the site prepared
        drv.switches.ensure("DC0", vcenter.dvs_name, "nsx-prepared", hosts, vcenter.uplink_pnic)
    nsx = NsxSim(tmp_path / "nsx", free_port(), vcsim=own_vcsim, dvs=vcenter.dvs_name).start()
    yield vcenter, make_user("site-admin", staff=True), nsx
    nsx.stop()


def register(vcenter, nsx):
    return nsx_services.create_manager({
        "vcenter": vcenter, "url": nsx.url, "username": nsx.user, "password": nsx.password, "ca_bundle": nsx.ca_file,
        "transport_zone_path": "/infra/sites/default/enforcement-points/default/transport-zones/tz-overlay",
        "tier0_path": "/infra/tier-0s/t0-site",
    })  # fmt: skip


def request_overlay(tenant, owner, name="geo"):
    data = {
        "name": name, "workload_class": "parallel-distributed", "worker_count": 1, "vcpus_per_node": 2,
        "memory_gb_per_node": 4, "login_node": True, "interconnect": "none", "network_mode": "overlay",
        "data_path": "standard", "lease_end": timezone.localdate() + datetime.timedelta(days=30),
        "justification": "climate model",
    }  # fmt: skip
    return services.create_cluster(tenant, owner, data, submit=True)


def settle(wait_for, cluster, *states):
    def reached():
        cluster.refresh_from_db()
        return cluster.state in states and cluster.observed_generation == cluster.generation

    assert wait_for(reached, SETTLE), f"{cluster.state}: {cluster.status_message}"


def steps_of(cluster) -> str:
    return " | ".join(cluster.operations.values_list("step", flat=True))


def enclave_paths(nsx, tenant) -> list[str]:
    return [p for p in nsx.objects() if f"enclave-t{tenant.pk}-" in p or p.endswith(f"enclave-t{tenant.pk}")]


def test_an_overlay_cluster_is_refused_on_a_site_without_nsx(site, make_user):
    vcenter, admin, _nsx = site
    owner = make_user("pi")
    tenant = services.create_tenant("geo", "Geo", owner=owner)
    with pytest.raises(ServiceError, match="NSX"):
        request_overlay(tenant, owner)


def test_an_overlay_cluster_is_realized_in_nsx_attached_tagged_repaired_and_removed(
    celery_worker, site, own_vcsim, make_user, wait_for, client
):
    vcenter, admin, nsx = site
    manager = register(vcenter, nsx)
    manager.refresh_from_db()
    assert wait_for(lambda: (manager.refresh_from_db() or manager.check_result) == CheckResult.OK, 30), (
        manager.check_message
    )
    owner = make_user("pi")
    tenant = services.create_tenant("geo", "Geo", owner=owner)
    cluster = services.approve_cluster(request_overlay(tenant, owner), admin)
    settle(wait_for, cluster, S.READY)

    # NSX holds the tenant's tier-1, segment, groups and policies, all realized
    segment = cluster.placement.segment
    assert segment.kind == "overlay" and segment.vsphere_cluster == "DC0_C0"
    paths = enclave_paths(nsx, tenant)
    seg_path = f"/infra/segments/enclave-t{tenant.pk}-s{segment.pk}"
    assert seg_path in paths and f"/infra/tier-1s/enclave-t{tenant.pk}" in paths
    assert any("/security-policies/" in p and "/rules/" in p for p in paths)
    rows = NsxObject.objects.filter(manager=manager, tenant=tenant)
    assert rows.count() >= 4 and {r.state for r in rows} == {Realization.REALIZED}
    segment.refresh_from_db()
    assert segment.state == SegmentState.READY

    # the cluster's and the segment's pages show what NSX realized
    client.force_login(owner)
    page = client.get(reverse("frontend:cluster-detail", args=[cluster.pk])).content.decode()
    assert (
        "Realized in NSX" in page and f"enclave-t{tenant.pk}-s{segment.pk}" in page and "distributed firewall" in page
    )
    page = client.get(reverse("netpolicy:segment-detail", args=[segment.pk])).content.decode()
    assert "In NSX" in page and "Realized" in page

    # every VM's NIC sits on the port group NSX made for the segment, and the tenant's group holds every VM
    names = sorted(n for _r, n in node_names(cluster))
    pg_name = realize.segment_name(segment)
    with Driver(own_vcsim.config()) as drv:
        snap = drv.snapshot("DC0")
        pg = snap.portgroups[pg_name][0]
        for name in names:
            assert [n.portgroup_key for n in snap.vms[name][0].nics] == [pg.key], name
    assert nsx.group_members(f"enclave-t{tenant.pk}-all-vms") == names
    assert nsx.group_members(f"enclave-t{tenant.pk}-cluster-{cluster.pk}") == names
    login = [n for role, n in node_names(cluster) if role == "login"]
    assert nsx.group_members(f"enclave-t{tenant.pk}-login") == login  # the default policy's role group

    # a second run sends nothing
    nsx.reset_stats()
    outcome = realize.realize_tenant(manager, tenant)
    assert outcome.patched == 0 and nsx.stats().get(INFRA, 0) == 0

    # a rule change reaches NSX through the worker, as one hierarchical PATCH
    policy = FirewallPolicy.objects.get(tenant=tenant)
    ssh = [Service.objects.get(name="ssh")]
    rule = save_rule(admin, {"policy": policy, "name": "gridftp", "sequence": 500, "action": "allow", "services": ssh})
    rule_path = f"/security-policies/enclave-t{tenant.pk}-p{policy.pk}/rules/enclave-r{rule.pk}"
    assert wait_for(lambda: any(p.endswith(rule_path) for p in nsx.objects()), 60)

    # drift: the rule deleted in NSX behind Enclave's back is found and put back
    full = next(p for p in nsx.objects() if p.endswith(rule_path))
    nsx.delete(full)
    assert nsx_tasks.sweep_drift() == 1
    assert wait_for(lambda: full in nsx.objects(), 60)

    # decommission: VMs gone, then the segment, its port group and every object of the tenant
    services.decommission_cluster(cluster, owner)
    settle(wait_for, cluster, S.RETIRED)
    assert enclave_paths(nsx, tenant) == []
    segment.refresh_from_db()
    assert segment.state == SegmentState.RETIRED
    with Driver(own_vcsim.config()) as drv:
        assert pg_name not in drv.snapshot("DC0").portgroups
    assert not NsxObject.objects.filter(manager=manager, tenant=tenant).exists()
    assert AppliedState.objects.get(manager=manager, tenant=tenant).paths == []


def test_faults_at_each_nsx_step_are_retried_until_the_cluster_is_ready(celery_worker, site, make_user, wait_for):
    vcenter, admin, nsx = site
    manager = register(vcenter, nsx)
    owner = make_user("pi")
    tenant = services.create_tenant("geo", "Geo", owner=owner)
    segments = f"/infra/segments/enclave-t{tenant.pk}-"
    nsx.inject(method="PATCH", path="/policy/api/v1/infra", status=503, count=1)
    # The stand-in retries a failed realization each second, as NSX does: a fault that fired once could be
    # gone before a loaded worker looked. It stays until the cluster's own steps have reported it.
    nsx.inject(realize_error=segments, message="host switch not ready", count=1_000_000)
    nsx.inject(method="POST", path="/policy/api/v1/infra/realized-state", status=503, count=1)
    cluster = services.approve_cluster(request_overlay(tenant, owner), admin)
    assert wait_for(lambda: "host switch not ready" in steps_of(cluster), SETTLE), steps_of(cluster)
    nsx.clear_faults(realize_error=segments)
    settle(wait_for, cluster, S.READY)
    assert nsx.control("GET", "faults") == {"faults": []}  # the tag update's 503 fired too
    steps = steps_of(cluster)
    assert "503" in steps and "host switch not ready" in steps
    assert {r.state for r in NsxObject.objects.filter(manager=manager, tenant=tenant)} == {Realization.REALIZED}
    assert sorted(nsx.group_members(f"enclave-t{tenant.pk}-all-vms")) == sorted(n for _r, n in node_names(cluster))
