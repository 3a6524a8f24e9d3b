"""Catalog pages: admins publish from a table of rules, researchers request within an item's bounds."""

import datetime

import pytest
from django.utils import timezone

from catalog.models import CatalogItem
from tenants.models import VirtualCluster
from tests.catalog.builders import ml_item, mpi_item

pytestmark = pytest.mark.django_db
LEASE = (timezone.localdate() + datetime.timedelta(days=14)).isoformat()


def rule_form(**overrides) -> dict:
    data = {
        "slug": "bert", "name": "BERT fine-tuning", "summary": "one GPU per worker", "visibility": "all",
        "active": "on", "max_lease_days": "60",
        "workload_class__value": "ml", "worker_count__value": "2", "worker_count__editable": "on",
        "worker_count__min": "1", "worker_count__max": "4", "vcpus_per_node__value": "8",
        "memory_gb_per_node__value": "32", "interconnect__value": "none", "interconnect__editable": "on",
        "nic_type__value": "vmxnet3",
        "interconnect__choices": ["none", "pvrdma"], "network_mode__value": "vlan", "data_path__value": "standard",
        "gpu_mode__value": "none", "gpus_per_worker__value": "0",
    }  # fmt: skip
    data.update(overrides)
    return data


def test_a_site_admin_publishes_an_item_from_the_rules_table(world, client):
    client.force_login(world.admin)
    assert client.get("/catalog/new/").status_code == 200
    response = client.post("/catalog/new/", rule_form())
    assert response.status_code == 302, response.content.decode()[:2000]
    item = CatalogItem.objects.get(slug="bert")
    assert item.current.rules["worker_count"] == {"value": 2, "editable": True, "min": 1, "max": 4}
    assert item.current.rules["interconnect"] == {"value": "none", "editable": True, "choices": ["none", "pvrdma"]}
    assert item.current.rules["vcpus_per_node"] == {"value": 8, "editable": False}
    edit = client.post(f"/catalog/{item.pk}/edit/", rule_form(vcpus_per_node__value="16"))
    assert edit.status_code == 302
    item.refresh_from_db()
    assert item.current.number == 2 and item.current.rules["vcpus_per_node"]["value"] == 16
    page = client.get(f"/catalog/{item.pk}/").content.decode()
    assert 'id="item-versions"' in page and "Edit (makes version 3)" in page


def test_bad_rules_come_back_on_the_form_with_the_reason(world, client):
    client.force_login(world.admin)
    response = client.post("/catalog/new/", rule_form(worker_count__min="3"))  # the preset 2 is below it
    assert response.status_code == 200 and "the preset 2 is outside 3..4" in response.content.decode()
    assert not CatalogItem.objects.exists()


def test_a_researcher_requests_from_an_item_within_its_bounds(world, client):
    item = mpi_item(world.admin)
    client.force_login(world.member_a)
    page = client.get(f"/catalog/{item.pk}/").content.decode()
    assert "SR-IOV VFs run within about 8% of bare metal" in page  # the admin's text
    assert "no vMotion, DRS, HA" in page  # the measured trade-offs of the presets
    body = {"tenant": world.tenant_a.pk, "name": "md-1", "lease_end": LEASE, "justification": "membranes",
            "worker_count": "40", "memory_gb_per_node": "64", "interconnect": "sriov-ib", "submit": "1"}  # fmt: skip
    refused = client.post(f"/catalog/{item.pk}/", body)
    assert refused.status_code == 200 and "Ensure this value is less than or equal to 16" in refused.content.decode()
    response = client.post(f"/catalog/{item.pk}/", body | {"worker_count": "8"})
    assert response.status_code == 302
    cluster = VirtualCluster.objects.get(name="md-1")
    assert (cluster.worker_count, cluster.state, cluster.catalog_origin.version.number) == (8, "submitted", 1)
    detail = client.get(f"/clusters/{cluster.pk}/").content.decode()
    assert 'id="cluster-origin"' in detail and "MPI cluster (GROMACS, SR-IOV IB)" in detail


def test_options_the_site_lacks_are_shown_disabled_with_the_reason(world, client):
    from tests.vsphere.sites import capacity_site

    capacity_site()  # InfiniBand PFs, no GPUs, nothing ready for PVRDMA
    item = ml_item(world.admin, rules=_ml_editable())
    client.force_login(world.member_a)
    page = client.get(f"/catalog/{item.pk}/").content.decode()
    assert 'id="item-refusals"' in page and "No GPU is enabled for DirectPath I/O at this site." in page
    form = client.get("/clusters/new/").content.decode()
    assert 'value="pvrdma" disabled title="No host is ready for PVRDMA' in form
    assert 'value="sriov-ib">SR-IOV InfiniBand</option>' in form
    assert 'data-option="gpu_mode:passthrough"' in form


def _ml_editable() -> dict:
    from tests.catalog.builders import ML_RULES

    return ML_RULES | {"interconnect": {"value": "sriov-roce", "editable": True, "choices": ["sriov-roce", "pvrdma"]}}


def test_the_catalog_shows_one_page_of_items_at_a_time(world, client):
    for i in range(30):
        mpi_item(world.admin, slug=f"mpi-{i:02d}", name=f"MPI {i:02d}")
    client.force_login(world.member_a)
    first = client.get("/catalog/").content.decode()
    assert first.count('class="card catalog-item') == 24 and "1–24 of 30" in first and 'rel="next"' in first
    second = client.get("/catalog/?page=2").content.decode()
    assert second.count('class="card catalog-item') == 6 and "mpi-29" in second
