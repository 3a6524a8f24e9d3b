"""Approval reaches vSphere through one realizer: placement on a named site and segment, no signals."""

import importlib
import re
from pathlib import Path

import pytest
from django.apps import apps as django_apps
from django.db import IntegrityError, transaction

from audit.models import AuditEvent
from core.errors import InvalidRequest
from netpolicy.models import Segment
from tenants import realizers, services
from tenants.choices import SiteKind
from tenants.models import VirtualCluster
from tests.vsphere.sites import capacity_site, cluster_of, make_vcenter
from vsphere.models import Placement, VFAssignment, placement_of

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def test_approval_places_the_cluster_on_its_vcenter_and_its_tenants_segment(world, reconcile_held):
    vcenter, _pfs = capacity_site()
    cluster = services.approve_cluster(cluster_of(world.tenant_a, world.owner_a, submit=True), world.admin)
    placed = Placement.objects.get(cluster=cluster)
    assert (cluster.site_kind, placed.site, placed.segment.tenant) == (SiteKind.VSPHERE, vcenter, world.tenant_a)
    assert placed.segment == Segment.objects.get(tenant=world.tenant_a, kind="vlan")
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
    assert cluster.site_kind == SiteKind.NONE and not Placement.objects.filter(cluster=cluster).exists()
    assert (realizers.placement_of(cluster).site, realizers.placement_of(cluster).segment) == (None, None)
    assert realizers.for_cluster(cluster).kind == SiteKind.NONE


def test_a_refused_reservation_leaves_the_request_endorsed_with_nothing_taken(world, reconcile_held):
    capacity_site()  # 18 VFs in all: B's cluster takes 5, A's asks for 17 (within the site, beyond what is free)
    services.approve_cluster(cluster_of(world.tenant_b, world.owner_b, submit=True, worker_count=4), world.admin)
    services.update_quota(world.tenant_a.quota, max_nodes=100, max_vcpus=10_000, max_memory_gb=100_000, max_vfs=100)
    cluster = cluster_of(world.tenant_a, world.owner_a, submit=True, worker_count=16)
    with pytest.raises(services.Conflict, match="Not enough free SR-IOV VFs"):
        services.approve_cluster(cluster, world.admin)
    cluster.refresh_from_db()
    assert (
        cluster.state == "endorsed"
        and cluster.site_kind == ""
        and not Placement.objects.filter(cluster=cluster).exists()
    )
    assert not VFAssignment.objects.filter(cluster=cluster).exists()
    assert not Segment.objects.filter(tenant=world.tenant_a).exists()


def test_the_data_migration_places_existing_clusters_on_the_first_vcenter_with_their_segment(world, reconcile_held):
    first, _pfs = capacity_site()
    approved = services.approve_cluster(cluster_of(world.tenant_a, world.owner_a, submit=True), world.admin)
    make_vcenter("later")
    pending = cluster_of(world.tenant_b, world.owner_b, submit=True)
    Placement.objects.all().delete()
    VirtualCluster.objects.update(site_kind="")  # rows from before placement existed
    migration = importlib.import_module("vsphere.migrations.0014_placement")
    migration.place_unplaced(django_apps, None)
    approved, pending = (VirtualCluster.objects.get(pk=c.pk) for c in (approved, pending))
    assert (approved.site_kind, approved.placement.site, approved.placement.segment) == (
        SiteKind.VSPHERE, first, Segment.objects.get(tenant=world.tenant_a),
    )  # fmt: skip
    assert pending.site_kind == "" and placement_of(pending).site is None


def test_a_cluster_has_one_placement_holding_its_site_and_segment(world, reconcile_held):
    vcenter, _pfs = capacity_site()
    cluster = services.approve_cluster(cluster_of(world.tenant_a, world.owner_a, submit=True), world.admin)
    placed = Placement.objects.get(pk=cluster.pk)  # the cluster is the placement's primary key
    assert (placed.cluster, placed.site, placed.segment.tenant) == (cluster, vcenter, world.tenant_a)
    assert list(vcenter.placements.all()) == [placed] and list(placed.segment.placements.all()) == [placed]
    with pytest.raises(IntegrityError), transaction.atomic():
        Placement.objects.create(cluster=cluster, site=vcenter)


def test_the_approval_audit_names_the_site_and_segment_it_placed_the_cluster_on(world, reconcile_held):
    vcenter, _pfs = capacity_site()
    cluster = services.approve_cluster(cluster_of(world.tenant_a, world.owner_a, submit=True), world.admin)
    event = AuditEvent.objects.get(action="cluster.approve", object_id=str(cluster.pk))
    segment = Segment.objects.get(tenant=world.tenant_a)
    assert (event.before["site"], event.before["segment"]) == (None, None)
    assert (event.after["site"], event.after["segment"]) == (vcenter.pk, segment.pk)


def test_tenants_never_imports_a_site_app_and_no_cluster_signals_remain():
    for path in (ROOT / "tenants").rglob("*.py"):
        text = path.read_text()
        assert not re.search(r"^(from|import) (vsphere|agents)\b", text, re.MULTILINE), path
        for gone in ("cluster_pre_approve", "cluster_pre_resize", "cluster_intent_changed"):
            assert gone not in text, path
    assert not (ROOT / "vsphere" / "receivers.py").exists()
