"""Inputs that once answered 500: each is a clear 4xx now and leaves nothing half-written."""

import json

import pytest
from django.db import OperationalError, connection
from django.test import Client
from psycopg_pool import PoolTimeout

from audit.models import AuditEvent
from tenants import services
from tenants.models import Quota, VirtualCluster
from tests.conftest import cluster_data, service_data
from tests.vsphere.sites import make_vcenter

pytestmark = pytest.mark.django_db


def test_renaming_a_draft_to_an_existing_name_is_a_400(world, api):
    services.create_cluster(world.tenant_a, world.member_a, service_data(name="taken"))
    draft = services.create_cluster(world.tenant_a, world.member_a, service_data(name="mine"))
    events = AuditEvent.objects.count()
    response = api(world.member_a).patch(f"/api/v1/clusters/{draft.pk}/", {"name": "taken"}, format="json")
    assert response.status_code == 400 and "already exists" in response.json()["name"][0]
    draft.refresh_from_db()
    assert draft.name == "mine" and AuditEvent.objects.count() == events


JSON_ENDPOINTS = [
    "/api/v1/clusters/", "/api/v1/tokens/", "/api/v1/tenants/", "/api/v1/memberships/", "/api/v1/vcenters/",
    "/api/v1/agents/join", "/api/v1/segments/", "/api/v1/groups/", "/api/v1/firewall-rules/",
]  # fmt: skip


@pytest.mark.parametrize("path", JSON_ENDPOINTS)
@pytest.mark.parametrize("depth", [40, 100_000])
def test_deeply_nested_json_is_a_400_on_every_endpoint(world, api, path, depth):
    body = "[" * depth + "]" * depth
    if depth > 1000:  # inside an object, as a field value
        body = '{"name": ' + body + "}"
    events = AuditEvent.objects.count()
    response = api(world.admin).post(path, body, content_type="application/json")
    assert response.status_code in (400, 413), (path, response.status_code)
    assert "nested" in json.dumps(response.json()) or response.status_code == 413
    assert AuditEvent.objects.count() == events


def _drop_quota(tenant):
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM tenants_quota WHERE tenant_id = %s", [tenant.pk])


def test_a_tenant_whose_quota_row_is_gone_fails_closed(world, api):
    _drop_quota(world.tenant_a)
    body = cluster_data(tenant=world.tenant_a.pk, submit=True)
    response = api(world.member_a).post("/api/v1/clusters/", body, format="json")
    assert response.status_code == 409 and "vCPUs: asked 32, 0 left of 0" in json.dumps(response.json())
    assert not VirtualCluster.objects.filter(tenant=world.tenant_a).exists()
    assert not Quota.objects.filter(tenant=world.tenant_a).exists()  # the refused request wrote nothing


def test_pages_of_a_tenant_without_a_quota_row_render(world, client):
    _drop_quota(world.tenant_a)
    client.force_login(world.admin)
    assert client.get(f"/tenants/{world.tenant_a.pk}/").status_code == 200
    response = client.post(
        f"/tenants/{world.tenant_a.pk}/",
        {
            "quota": "1",
            "max_nodes": 4,
            "max_vcpus": 64,
            "max_memory_gb": 256,
            "max_vfs": 4,
            "max_segments": 2,
            "max_pending_segments": 2,
            "max_gpus": 2,
        },
    )
    assert response.status_code == 302 and Quota.objects.get(tenant=world.tenant_a).max_vcpus == 64
    assert AuditEvent.objects.filter(action="quota.create", message__contains="recreated").count() == 1
    client.force_login(world.member_a)
    assert client.get("/clusters/new/").status_code == 200


FUZZ_VALUES = [None, "", "x" * 5000, -1, 2**63, 1.5, True, [], {}, "\x00", "2001-13-45", "../../etc/passwd"]


@pytest.mark.parametrize("path,fields", [
    ("/api/v1/clusters/", list(cluster_data())),
    ("/api/v1/tokens/", ["name", "scope", "expires_at"]),
    ("/api/v1/tenants/", ["slug", "name", "description"]),
    ("/api/v1/memberships/", ["tenant", "user", "role"]),
    ("/api/v1/vcenters/", ["name", "host", "port", "username", "password", "password_file", "ca_bundle",
                           "verify_tls", "insecure", "datacenter"]),
])  # fmt: skip
def test_fuzzed_fields_never_answer_500(world, api, path, fields):
    client = api(world.admin)
    base = {"tenant": world.tenant_a.pk, "user": world.member_b.pk, "role": "member", "slug": "fz", "name": "fz"}
    failures = []
    for field in fields:
        for value in FUZZ_VALUES:
            response = client.post(path, {**base, **cluster_data(), field: value}, format="json")
            if response.status_code >= 500:
                failures.append(f"{field}={value!r:.40}: {response.status_code}")
    assert not failures, failures


@pytest.mark.parametrize("query", [
    "since=yesterday", "until=2020-99-99", "limit=-5", "offset=-1", "limit=abc", "tenant=abc", "ordering=nope",
    "actor_kind=robot", "q=%00", "object_id=" + "9" * 200,
])  # fmt: skip
def test_fuzzed_audit_queries_never_answer_500(world, api, query):
    for path in ("/api/v1/audit-events/", "/api/v1/audit-events/export/", "/api/v1/tokens/"):
        response = api(world.admin).get(f"{path}?{query}")
        assert response.status_code < 500, (path, query, response.status_code)


def test_fuzzed_vcenter_updates_never_answer_500(world, api):
    vcenter = make_vcenter()
    client = api(world.admin)
    for field in ("port", "insecure", "verify_tls", "password_file", "name", "host"):
        for value in FUZZ_VALUES:
            response = client.patch(f"/api/v1/vcenters/{vcenter.pk}/", {field: value}, format="json")
            assert response.status_code < 500, (field, value, response.status_code)


def _every_connection_busy(*args, **kwargs):
    """What Django raises when the process's pool had no free connection within its timeout."""
    try:
        raise PoolTimeout("couldn't get a connection after 30.00 sec")
    except PoolTimeout as exc:
        raise OperationalError(str(exc)) from exc


@pytest.mark.parametrize(("path", "patched"), [
    ("/api/v1/tenants/", "core.rest.Pagination.paginate_queryset"),
    ("/", "frontend.context.waiting_for"),
])  # fmt: skip
def test_a_request_that_finds_every_database_connection_busy_is_a_503_with_retry_after(
    world, monkeypatch, path, patched
):
    monkeypatch.setattr(patched, _every_connection_busy)
    client = Client(raise_request_exception=False)
    client.force_login(world.owner_a)
    response = client.get(path)
    assert response.status_code == 503 and response["Retry-After"] == "5"
    assert "no database connection was free" in response.content.decode()
    if path.startswith("/api/"):
        assert response.json()["code"] == "busy"


def test_any_other_uncaught_error_is_still_a_500(world, monkeypatch):
    monkeypatch.setattr("core.rest.Pagination.paginate_queryset", lambda *a, **k: 1 / 0)
    client = Client(raise_request_exception=False)
    client.force_login(world.owner_a)
    response = client.get("/api/v1/tenants/")
    assert response.status_code == 500 and "Retry-After" not in response
