"""A cluster from a catalog item keeps the item version's bounds: draft edits, resizes, lease extensions, pages."""

import datetime

import pytest
from django.utils import timezone

from tenants.choices import ClusterState
from tenants.models import LeaseExtension, VirtualCluster
from tests.catalog.builders import ml_item

pytestmark = pytest.mark.django_db
TODAY = timezone.localdate()


def _days(n: int) -> str:
    return (TODAY + datetime.timedelta(days=n)).isoformat()


@pytest.fixture
def catalog_cluster(world, api):
    """member-a's ml-training request (1-4 workers, 120 days at most) with a 30-day lease."""
    item = ml_item(world.admin, max_lease_days=120)
    body = {"tenant": world.tenant_a.pk, "name": "llm-1", "lease_end": _days(30), "justification": "fine-tuning"}
    created = api(world.member_a).post(f"/api/v1/catalog-items/{item.pk}/request/", body, format="json")
    assert created.status_code == 201, created.content
    return VirtualCluster.objects.get(pk=created.json()["id"])


def _live(cluster):
    VirtualCluster.objects.filter(pk=cluster.pk).update(state=ClusterState.READY)
    cluster.refresh_from_db()
    return cluster


def test_a_draft_edit_past_the_items_worker_bound_is_refused_naming_it(world, api, catalog_cluster):
    response = api(world.member_a).patch(f"/api/v1/clusters/{catalog_cluster.pk}/", {"worker_count": 64},
                                         format="json")  # fmt: skip
    assert response.status_code == 400, response.content
    assert "ml-training version 1" in str(response.json()) and "1 to 4" in str(response.json())
    catalog_cluster.refresh_from_db()
    assert catalog_cluster.worker_count == 2


def test_a_draft_edit_of_a_field_the_item_fixes_is_refused(world, api, catalog_cluster):
    response = api(world.member_a).patch(f"/api/v1/clusters/{catalog_cluster.pk}/", {"vcpus_per_node": 64},
                                         format="json")  # fmt: skip
    assert response.status_code == 400 and "fixed by this catalog item" in str(response.json())


def test_a_draft_lease_past_the_items_limit_is_refused_and_one_within_it_taken(world, api, catalog_cluster):
    path = f"/api/v1/clusters/{catalog_cluster.pk}/"
    refused = api(world.member_a).patch(path, {"lease_end": _days(360)}, format="json")
    assert refused.status_code == 400 and "at most 120 days" in str(refused.json())
    allowed = api(world.member_a).patch(path, {"lease_end": _days(100), "worker_count": 4}, format="json")
    assert allowed.status_code == 200, allowed.content
    assert (allowed.json()["worker_count"], allowed.json()["lease_end"]) == (4, _days(100))


def test_a_resize_past_the_items_bound_is_refused(world, api, catalog_cluster):
    cluster = _live(catalog_cluster)
    response = api(world.owner_a).post(f"/api/v1/clusters/{cluster.pk}/resize/", {"worker_count": 64}, format="json")
    assert response.status_code == 400 and "ml-training version 1" in str(response.json())
    other = api(world.owner_a).post(f"/api/v1/clusters/{cluster.pk}/resize/", {"interconnect": "sriov-ib"},
                                    format="json")  # fmt: skip
    assert other.status_code == 400 and "fixed by this catalog item" in str(other.json())
    cluster.refresh_from_db()
    assert (cluster.worker_count, cluster.interconnect) == (2, "sriov-roce")


def test_a_lease_extension_past_the_items_limit_is_refused_even_with_a_justification(world, api, catalog_cluster):
    path = f"/api/v1/clusters/{_live(catalog_cluster).pk}/extend-lease/"
    member = api(world.member_a)
    assert member.post(path, {"lease_end": _days(360)}, format="json").status_code == 400
    justified = member.post(path, {"lease_end": _days(500), "justification": "please"}, format="json")
    assert justified.status_code == 400 and "at most 120 days" in str(justified.json())
    assert not LeaseExtension.objects.exists()
    within = member.post(path, {"lease_end": _days(120)}, format="json")
    assert within.status_code == 200 and within.json()["lease_end"] == _days(120)


def test_an_extension_past_the_items_limit_asked_for_earlier_cannot_be_approved(world, api, catalog_cluster):
    cluster = _live(catalog_cluster)
    LeaseExtension.objects.create(
        cluster=cluster, lease_end=_days(400), justification="old", requested_by=world.member_a
    )
    response = api(world.owner_a).post(f"/api/v1/clusters/{cluster.pk}/approve-extension/", {}, format="json")
    assert response.status_code == 400 and "at most 120 days" in str(response.json())
    cluster.refresh_from_db()
    assert cluster.lease_end == datetime.date.fromisoformat(_days(30))


def test_the_cluster_page_offers_only_the_items_lease_and_workers(world, client, catalog_cluster):
    cluster = _live(catalog_cluster)
    client.force_login(world.owner_a)
    page = client.get(f"/clusters/{cluster.pk}/").content.decode()
    assert f'max="{_days(120)}"' in page and "ml-training version 1 lives at most 120 days" in page
    assert 'name="justification"' not in page
    assert 'max="4"' in page and 'min="1"' in page  # the resize form's worker bound


def test_a_cluster_at_its_items_limit_is_told_so_instead_of_offered_a_form(world, client, catalog_cluster):
    VirtualCluster.objects.filter(pk=catalog_cluster.pk).update(state=ClusterState.READY, lease_end=_days(120))
    client.force_login(world.member_a)
    page = client.get(f"/clusters/{catalog_cluster.pk}/").content.decode()
    assert "cannot move past" in page and 'id="extend-lease"' not in page
