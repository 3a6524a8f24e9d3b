"""Bad input gets a clear 4xx with field-level JSON, and leaves nothing written."""

import datetime

import pytest

from audit.models import AuditEvent
from tenants.models import VirtualCluster
from tests.conftest import cluster_data

pytestmark = pytest.mark.django_db

BAD_FIELDS = [
    ("name", "Not_DNS!", "name"),
    ("name", "-leading", "name"),
    ("worker_count", 0, "worker_count"),
    ("worker_count", -3, "worker_count"),
    ("vcpus_per_node", 0, "vcpus_per_node"),
    ("memory_gb_per_node", -1, "memory_gb_per_node"),
    ("interconnect", "carrier-pigeon", "interconnect"),
    ("workload_class", "quantum", "workload_class"),
    ("nic_type", "vmxnet3; rm -rf /", "nic_type"),
    ("nic_type", "VirtualE1000", "nic_type"),
    ("lease_end", "2001-01-01", "lease_end"),
    ("lease_end", "tomorrow-ish", "lease_end"),
]


@pytest.mark.parametrize("field,value,error_field", BAD_FIELDS)
def test_it_rejects_bad_cluster_fields(world, api, field, value, error_field):
    body = cluster_data(tenant=world.tenant_a.pk, **{field: value})
    response = api(world.member_a).post("/api/v1/clusters/", body, format="json")
    assert response.status_code == 400
    assert error_field in response.json()
    assert VirtualCluster.objects.count() == 0


def test_it_rejects_a_foreign_tenant(world, api):
    response = api(world.member_a).post("/api/v1/clusters/", cluster_data(tenant=world.tenant_b.pk), format="json")
    assert response.status_code == 400 and response.json()["tenant"] == ["No such tenant."]


def test_it_rejects_a_duplicate_name_within_a_tenant(world, api):
    client = api(world.member_a)
    assert client.post("/api/v1/clusters/", cluster_data(tenant=world.tenant_a.pk), format="json").status_code == 201
    response = client.post("/api/v1/clusters/", cluster_data(tenant=world.tenant_a.pk), format="json")
    assert response.status_code == 400 and "already exists" in response.json()["name"][0]
    assert VirtualCluster.objects.count() == 1


def test_quota_refusals_are_json_with_the_numbers(world, api):
    body = cluster_data(tenant=world.tenant_a.pk, worker_count=500, submit=True)
    response = api(world.member_a).post("/api/v1/clusters/", body, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "quota_exceeded"
    assert "nodes: asked 502, 16 left of 16" in response.json()["quota"]
    assert VirtualCluster.objects.count() == 0


def test_an_oversized_payload_is_refused(world, api):
    body = cluster_data(tenant=world.tenant_a.pk, justification="x" * 400_000)
    response = api(world.member_a).post("/api/v1/clusters/", body, format="json")
    assert response.status_code in (400, 413)
    assert VirtualCluster.objects.count() == 0


def test_malformed_json_is_a_400_with_a_message(world, api):
    response = api(world.member_a).post("/api/v1/clusters/", "{not json", content_type="application/json")
    assert response.status_code == 400 and "detail" in response.json()


def test_state_fields_cannot_be_written(world, api):
    client = api(world.member_a)
    pk = client.post("/api/v1/clusters/", cluster_data(tenant=world.tenant_a.pk), format="json").json()["id"]
    response = client.patch(f"/api/v1/clusters/{pk}/", {"state": "approved"}, format="json")
    assert response.status_code == 200 and response.json()["state"] == "draft"


def test_drafts_are_editable_and_submitted_requests_are_not(world, api):
    client = api(world.member_a)
    pk = client.post("/api/v1/clusters/", cluster_data(tenant=world.tenant_a.pk), format="json").json()["id"]
    assert client.patch(f"/api/v1/clusters/{pk}/", {"worker_count": 3}, format="json").json()["worker_count"] == 3
    client.post(f"/api/v1/clusters/{pk}/submit/")
    before = AuditEvent.objects.count()
    response = client.patch(f"/api/v1/clusters/{pk}/", {"worker_count": 4}, format="json")
    assert response.status_code == 409 and AuditEvent.objects.count() == before


def test_lists_paginate_and_filter(world, api):
    client = api(world.member_a)
    for i in range(3):
        client.post("/api/v1/clusters/", cluster_data(tenant=world.tenant_a.pk, name=f"c{i}"), format="json")
    page = client.get("/api/v1/clusters/?limit=2").json()
    assert page["count"] == 3 and len(page["results"]) == 2 and page["next"]
    assert client.get("/api/v1/clusters/?state=submitted").json()["count"] == 0
    assert client.get("/api/v1/clusters/?state=bogus").status_code == 400


def test_extend_lease_rejects_past_dates(world, api):
    client = api(world.member_a)
    pk = client.post("/api/v1/clusters/", cluster_data(tenant=world.tenant_a.pk), format="json").json()["id"]
    past = (datetime.date.today() - datetime.timedelta(days=1)).isoformat()
    response = client.post(f"/api/v1/clusters/{pk}/extend-lease/", {"lease_end": past}, format="json")
    assert response.status_code == 400 and "lease_end" in response.json()
