"""Approval reaches vSphere through one realizer: placement on a named site and segment, no signals."""

import importlib
import re
from pathlib import Path

import pytest

from core.errors import InvalidRequest
from netpolicy.models import Segment
from tenants import realizers, services
from tenants.choices import SiteKind
from tenants.models import VirtualCluster
from tests.vsphere.sites import capacity_site, cluster_of, make_vcenter
from vsphere.models import VFAssignment

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def test_approval_places_the_cluster_on_its_vcenter_and_its_tenants_segment(world, reconcile_held):
    vcenter, _pfs = capacity_site()
    cluster = services.approve_cluster(cluster_of(world.tenant_a, world.owner_a, submit=True), world.admin)
    assert (cluster.site_kind, cluster.site, cluster.segment.tenant) == (SiteKind.VSPHERE, vcenter, world.tenant_a)
    assert cluster.segment == Segment.objects.get(tenant=world.tenant_a, kind="vlan")
    assert realizers.for_cluster(cluster).kind == SiteKind.VSPHERE


def test_with_two_vcenters_the_approver_names_the_site_or_nothing_is_reserved(world, api, reconcile_held):
    _first, _pfs = capacity_site()
    second = make_vcenter("second")
    cluster = cluster_of(world.tenant_a, world.owner_a, submit=True, interconnect="none")
    with pytest.raises(InvalidRequest, match="Several vCenters"):
        services.approve_cluster(cluster, world.admin)
    assert not Segment.objects.filter(tenant=world.tenant_a).exists()
    refused = api(world.admin).post(f"/api/v1/clusters/{cluster.pk}/approve/", {"site": 999}, format="json")
    assert refused.status_code == 400 and "site" in refused.json()
    approved = api(world.admin).post(f"/api/v1/clusters/{cluster.pk}/approve/", {"site": second.pk}, format="json")
    assert approved.status_code == 200, approved.json()
    assert approved.json()["site"] == second.pk and approved.json()["site_kind"] == "vsphere"


def test_a_member_naming_a_site_is_refused_without_learning_which_sites_exist(world, api):
    cluster = cluster_of(world.tenant_a, world.owner_a, submit=True)
    for site in (1, 999):
        response = api(world.owner_a).post(f"/api/v1/clusters/{cluster.pk}/approve/", {"site": site}, format="json")
        assert response.status_code == 403


def test_without_a_vcenter_approval_places_the_cluster_on_no_site(world):
    cluster = services.approve_cluster(cluster_of(world.tenant_a, world.owner_a, submit=True), world.admin)
    assert cluster.site_kind == SiteKind.NONE and cluster.site is None and cluster.segment is None
    assert realizers.for_cluster(cluster).kind == SiteKind.NONE


def test_a_refused_reservation_leaves_the_request_endorsed_with_nothing_taken(world, reconcile_held):
    capacity_site()  # 18 VFs in all: B's cluster takes 5, A's asks for 17 (within the site, beyond what is free)
    services.approve_cluster(cluster_of(world.tenant_b, world.owner_b, submit=True, worker_count=4), world.admin)
    services.update_quota(world.tenant_a.quota, max_nodes=100, max_vcpus=10_000, max_memory_gb=100_000, max_vfs=100)
    cluster = cluster_of(world.tenant_a, world.owner_a, submit=True, worker_count=16)
    with pytest.raises(services.Conflict, match="Not enough free SR-IOV VFs"):
        services.approve_cluster(cluster, world.admin)
    cluster.refresh_from_db()
    assert cluster.state == "endorsed" and cluster.site_kind == "" and cluster.segment is None
    assert not VFAssignment.objects.filter(cluster=cluster).exists()
    assert not Segment.objects.filter(tenant=world.tenant_a).exists()


def test_the_data_migration_places_existing_clusters_on_the_first_vcenter_with_their_segment(world, reconcile_held):
    first, _pfs = capacity_site()
    approved = services.approve_cluster(cluster_of(world.tenant_a, world.owner_a, submit=True), world.admin)
    make_vcenter("later")
    pending = cluster_of(world.tenant_b, world.owner_b, submit=True)
    VirtualCluster.objects.update(site_kind="", site=None, segment=None)  # rows from before placement existed
    migration = importlib.import_module("tenants.migrations.0005_place_existing_clusters")
    from django.apps import apps

    migration.place(apps, None)
    approved.refresh_from_db()
    pending.refresh_from_db()
    assert (approved.site_kind, approved.site, approved.segment) == (
        SiteKind.VSPHERE, first, Segment.objects.get(tenant=world.tenant_a),
    )  # fmt: skip
    assert pending.site_kind == "" and pending.site is None


def test_tenants_never_imports_a_site_app_and_no_cluster_signals_remain():
    for path in (ROOT / "tenants").rglob("*.py"):
        text = path.read_text()
        assert not re.search(r"^(from|import) (vsphere|agents)\b", text, re.MULTILINE), path
        for gone in ("cluster_pre_approve", "cluster_pre_resize", "cluster_intent_changed"):
            assert gone not in text, path
    assert not (ROOT / "vsphere" / "receivers.py").exists()
