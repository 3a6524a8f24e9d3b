"""The site catalog over REST: admins publish versioned items, researchers request from the ones they see."""

import datetime

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from audit.models import AuditEvent
from catalog import services
from catalog.models import CatalogItemVersion, ClusterOrigin
from tenants.models import VirtualCluster
from tests.catalog.builders import MPI_RULES, ml_item, mpi_item

pytestmark = pytest.mark.django_db
LEASE = (timezone.localdate() + datetime.timedelta(days=30)).isoformat()


def request_body(world, **overrides):
    body = {"tenant": world.tenant_a.pk, "name": "gromacs-1", "lease_end": LEASE, "justification": "membranes"}
    body.update(overrides)
    return body


def test_a_site_admin_publishes_an_item_and_every_researcher_sees_it(world, api):
    body = {
        "slug": "mpi-gromacs", "name": "MPI cluster (GROMACS, SR-IOV IB)", "description": "within ~8% of bare metal",
        "rules": MPI_RULES, "max_lease_days": 90,
    }  # fmt: skip
    created = api(world.admin).post("/api/v1/catalog-items/", body, format="json")
    assert created.status_code == 201, created.content
    assert created.json()["version"] == 1
    assert created.json()["rules"]["worker_count"] == {"value": 4, "editable": True, "min": 2, "max": 16}
    assert created.json()["rules"]["vcpus_per_node"] == {"value": 16, "editable": False}
    listed = api(world.member_b).get("/api/v1/catalog-items/").json()["results"]
    assert [i["slug"] for i in listed] == ["mpi-gromacs"] and "tenants" not in listed[0]
    assert api(world.owner_a).post("/api/v1/catalog-items/", body | {"slug": "x"}, format="json").status_code == 403
    assert AuditEvent.objects.filter(action__in=["catalog.create", "catalog.version"]).count() == 2


def test_an_item_shown_to_tenant_a_is_a_404_for_tenant_b(world, api):
    item = mpi_item(world.admin, visibility="tenants", tenants=[world.tenant_a])
    assert api(world.member_a).get(f"/api/v1/catalog-items/{item.pk}/").status_code == 200
    assert api(world.member_b).get(f"/api/v1/catalog-items/{item.pk}/").status_code == 404
    body = request_body(world, tenant=world.tenant_b.pk)
    assert api(world.member_b).post(f"/api/v1/catalog-items/{item.pk}/request/", body, format="json").status_code == 404
    assert api(world.member_b).get("/api/v1/catalog-items/").json()["results"] == []


def test_a_request_for_another_tenant_and_for_a_missing_tenant_get_the_same_answer(world, api):
    item = mpi_item(world.admin)
    path = f"/api/v1/catalog-items/{item.pk}/request/"
    other = api(world.member_a).post(path, request_body(world, tenant=world.tenant_b.pk), format="json")
    missing = api(world.member_a).post(path, request_body(world, tenant=world.tenant_b.pk + 10_000), format="json")
    assert other.status_code == missing.status_code == 400
    assert other.json() == missing.json() == {**other.json(), "tenant": ["No such tenant."]}
    assert not VirtualCluster.objects.filter(name="gromacs-1").exists()


def test_a_hidden_item_and_a_missing_item_get_the_same_answer(world, api):
    hidden = mpi_item(world.admin, visibility="tenants", tenants=[world.tenant_b])
    body = request_body(world)
    seen = api(world.member_a).post(f"/api/v1/catalog-items/{hidden.pk}/request/", body, format="json")
    missing = api(world.member_a).post(f"/api/v1/catalog-items/{hidden.pk + 1000}/request/", body, format="json")
    assert seen.status_code == missing.status_code == 404 and seen.json() == missing.json()


def test_a_researcher_requests_within_the_items_bounds_and_the_request_records_the_version(world, api):
    item = mpi_item(world.admin)
    body = request_body(world, values={"worker_count": 8, "interconnect": "pvrdma"}, submit=False)
    response = api(world.member_a).post(f"/api/v1/catalog-items/{item.pk}/request/", body, format="json")
    assert response.status_code == 201, response.content
    cluster = VirtualCluster.objects.get(pk=response.json()["id"])
    assert (cluster.worker_count, cluster.interconnect, cluster.vcpus_per_node) == (8, "pvrdma", 16)
    origin = api(world.member_a).get(f"/api/v1/catalog-requests/?cluster={cluster.pk}").json()["results"]
    assert origin == [{**origin[0], "item_slug": "mpi-gromacs", "version": 1, "tenant": world.tenant_a.pk}]
    assert api(world.member_b).get("/api/v1/catalog-requests/").json()["results"] == []
    assert AuditEvent.objects.filter(action="catalog.request", tenant_id=world.tenant_a.pk).exists()


@pytest.mark.parametrize(
    ("values", "field", "message"),
    [
        ({"vcpus_per_node": 64}, "vcpus_per_node", "fixed by this catalog item"),
        ({"worker_count": 40}, "worker_count", "allows 2 to 16"),
        ({"interconnect": "sriov-roce"}, "interconnect", "allows sriov-ib, pvrdma"),
        ({"owner": 1}, "values", "Unknown request fields: owner"),
    ],
)
def test_changes_the_item_does_not_allow_are_refused_naming_the_field(world, api, values, field, message):
    item = mpi_item(world.admin)
    body = request_body(world, values=values)
    response = api(world.member_a).post(f"/api/v1/catalog-items/{item.pk}/request/", body, format="json")
    assert response.status_code == 400 and message in response.json()[field][0], response.content
    assert not VirtualCluster.objects.exists()


def test_a_lease_longer_than_the_item_allows_is_refused(world, api):
    item = mpi_item(world.admin, max_lease_days=10)
    response = api(world.member_a).post(f"/api/v1/catalog-items/{item.pk}/request/", request_body(world), format="json")
    assert response.status_code == 400 and "at most 10 days" in response.json()["lease_end"][0]


def test_changing_an_item_makes_a_new_version_and_never_changes_existing_clusters(world, api):
    item = mpi_item(world.admin)
    soon = timezone.localdate() + datetime.timedelta(days=5)
    first = services.request_cluster(
        item, world.tenant_a, world.member_a, {"name": "old", "lease_end": soon, "justification": "x"}
    )
    rules = MPI_RULES | {"vcpus_per_node": {"value": 32}}
    response = api(world.admin).patch(f"/api/v1/catalog-items/{item.pk}/", {"rules": rules}, format="json")
    assert response.status_code == 200 and response.json()["version"] == 2
    first.refresh_from_db()
    assert first.vcpus_per_node == 16 and first.catalog_origin.version.number == 1
    second = services.request_cluster(
        item, world.tenant_a, world.member_a, {"name": "new", "lease_end": soon, "justification": "x"}
    )
    assert second.vcpus_per_node == 32 and second.catalog_origin.version.number == 2
    versions = api(world.member_a).get(f"/api/v1/catalog-items/{item.pk}/versions/").json()
    assert [v["number"] for v in versions] == [2, 1]
    same = api(world.admin).patch(f"/api/v1/catalog-items/{item.pk}/", {"active": True}, format="json")
    assert same.json()["version"] == 2, "visibility and state changes are not new content"
    with pytest.raises(IntegrityError), transaction.atomic():
        CatalogItemVersion.objects.filter(item=item, number=1).update(name="rewritten")


def test_a_retired_item_is_gone_for_researchers_and_refused_for_admins(world, api):
    item = mpi_item(world.admin)
    api(world.admin).patch(f"/api/v1/catalog-items/{item.pk}/", {"active": False}, format="json")
    assert api(world.member_a).get(f"/api/v1/catalog-items/{item.pk}/").status_code == 404
    response = api(world.admin).post(f"/api/v1/catalog-items/{item.pk}/request/", request_body(world), format="json")
    assert response.status_code == 409


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ({"root": {"value": 1}}, "Unknown request fields: root"),
        ({"worker_count": None}, "give {'value': …}"),
        ({"worker_count": {"value": 0}}, "worker_count: value must be a whole number from 1 to 1024"),
        ({"worker_count": {"value": 4, "min": 2}}, "make it editable"),
        ({"interconnect": {"value": "sriov-ib", "editable": True, "choices": ["pvrdma"]}}, "include the preset"),
        ({"interconnect": {"value": "infiniband"}}, "not a valid value"),
        ({"gpu_mode": {"value": "vgpu"}, "gpus_per_worker": {"value": 1}}, "Choose a vGPU profile"),
        ({"login_node": {"value": "yes"}}, "true or false"),
        ({"vgpu_profile": {"value": "$(reboot)"}}, "not a valid value"),
        ({"nic_type": {"value": "rtl8139"}}, "not a valid value"),
        ({"data_path": {"value": "dpu"}, "nic_type": {"value": "e1000e"}}, "runs on VMXNET3 adapters only"),
    ],
)
def test_item_rules_follow_a_strict_grammar(world, api, rules, message):
    base = {k: {"value": v} for k, v in (("workload_class", "ml"), ("worker_count", 1), ("vcpus_per_node", 2),
                                           ("memory_gb_per_node", 4))}  # fmt: skip
    body = {"slug": "bad", "name": "Bad", "rules": base | rules}
    response = api(world.admin).post("/api/v1/catalog-items/", body, format="json")
    assert response.status_code == 400 and message in response.json()["rules"][0], response.content


def test_an_item_the_site_cannot_realize_says_why_and_its_requests_are_refused_at_submit(world, api):
    from tests.vsphere.sites import capacity_site

    capacity_site()  # InfiniBand PFs only: no GPUs, no RoCE
    item = ml_item(world.admin)
    detail = api(world.member_a).get(f"/api/v1/catalog-items/{item.pk}/").json()
    site = {(o["field"], o["value"]): o for o in detail["site"]["options"]}
    assert not site[("gpu_mode", "passthrough")]["available"]
    assert "No GPU is enabled for DirectPath I/O" in site[("gpu_mode", "passthrough")]["detail"]
    assert any("SR-IOV Ethernet" in r for r in detail["site"]["refusals"])
    body = request_body(world, name="bert", submit=True)
    response = api(world.member_a).post(f"/api/v1/catalog-items/{item.pk}/request/", body, format="json")
    assert response.status_code == 409, response.content
    assert any("No GPU is enabled for DirectPath I/O" in r for r in response.json()["site"])
    assert not ClusterOrigin.objects.exists() and not VirtualCluster.objects.exists()


def test_the_demo_catalog_publishes_the_issues_examples_once(make_user):
    from django.core.management import call_command

    make_user("admin", staff=True)
    call_command("seed_demo_catalog")
    call_command("seed_demo_catalog")
    from catalog.models import CatalogItem

    slugs = sorted(CatalogItem.objects.values_list("slug", flat=True))
    assert slugs == ["ml-training", "ml-vgpu-pvrdma", "mpi-gromacs"]
