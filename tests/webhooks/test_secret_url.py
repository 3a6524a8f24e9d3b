"""A webhook URL is a credential: stored encrypted, shown to everyone (owners too) as scheme://host/… + fingerprint."""

from types import SimpleNamespace

import pytest
from django.db import connection

from audit.models import AuditEvent
from webhooks import secret_url
from webhooks.models import Webhook

pytestmark = pytest.mark.django_db
SECRET = "T0AAAA/B0BBBB/s3cretPathTok3nXYZ"
URL = f"https://hooks.example.com/services/{SECRET}"
EVENTS = ["cluster.state_changed"]


def _streamed(response) -> str:
    return b"".join(response.streaming_content).decode() if response.streaming else response.content.decode()


@pytest.fixture
def hook(world, api):
    created = api(world.owner_a).post("/api/v1/webhooks/", {"tenant": world.tenant_a.pk, "name": "slack", "url": URL,
                                                            "events": EVENTS}, format="json")  # fmt: skip
    assert created.status_code == 201, created.content
    assert SECRET not in created.content.decode()
    return Webhook.objects.get(pk=created.json()["id"])


def test_the_url_is_stored_encrypted_and_only_the_sender_reads_it(hook):
    with connection.cursor() as cursor:
        cursor.execute("SELECT url FROM webhooks_webhook WHERE id = %s", [hook.pk])
        assert SECRET not in cursor.fetchone()[0]
    assert hook.url == URL  # what webhooks.delivery sends to
    assert (hook.url_redacted, hook.url_fingerprint) == ("https://hooks.example.com/…", secret_url.fingerprint(URL))


def test_members_read_the_audit_log_and_its_exports_without_the_secret_path(world, api, client, hook):
    member = api(world.member_a)
    events = member.get("/api/v1/audit-events/?action=webhook.")
    assert events.status_code == 200 and events.json()["results"], events.content
    assert SECRET not in events.content.decode() and "https://hooks.example.com/…" in events.content.decode()
    for path in ("/api/v1/audit-events/export/", "/api/v1/audit-events/export/?as=json"):
        exported = member.get(path)
        assert exported.status_code == 200 and "webhook.create" in _streamed(exported)
        assert SECRET not in _streamed(exported)
    client.force_login(world.member_a)
    for path in ("/audit/", "/audit/?export=csv"):
        page = client.get(path)
        assert page.status_code == 200 and SECRET not in _streamed(page)


def test_members_do_not_see_the_webhook_and_owners_see_it_redacted(world, api, client, hook):
    assert api(world.member_a).get(f"/api/v1/webhooks/{hook.pk}/").status_code == 404
    assert api(world.member_a).get("/api/v1/webhooks/").json()["results"] == []
    owner = api(world.owner_a)
    for path in (f"/api/v1/webhooks/{hook.pk}/", "/api/v1/webhooks/"):
        answer = owner.get(path)
        assert answer.status_code == 200 and SECRET not in answer.content.decode()
        assert hook.url_fingerprint in answer.content.decode() and '"url":' not in answer.content.decode()
    client.force_login(world.owner_a)
    for path in ("/webhooks/", f"/webhooks/{hook.pk}/"):
        page = client.get(path)
        assert page.status_code == 200 and SECRET not in page.content.decode()
        assert hook.url_fingerprint in page.content.decode()


def test_an_update_without_a_url_keeps_it_and_a_new_url_shows_a_new_fingerprint(world, api, hook):
    owner = api(world.owner_a)
    assert owner.patch(f"/api/v1/webhooks/{hook.pk}/", {"enabled": False}, format="json").status_code == 200
    hook.refresh_from_db()
    assert hook.url == URL and not hook.enabled
    other = "https://hooks.example.com/services/T0AAAA/B0BBBB/an0therS3cret"
    changed = owner.patch(f"/api/v1/webhooks/{hook.pk}/", {"url": other}, format="json")
    assert changed.status_code == 200 and "an0therS3cret" not in changed.content.decode()
    assert changed.json()["url_fingerprint"] == secret_url.fingerprint(other) != secret_url.fingerprint(URL)
    update = AuditEvent.objects.filter(action="webhook.update").latest("id")
    assert update.before["url"] != update.after["url"] and "an0therS3cret" not in str(update.after)


def test_the_edit_page_keeps_the_url_when_its_field_is_left_empty(world, client, hook):
    client.force_login(world.owner_a)
    page = client.get(f"/webhooks/{hook.pk}/")
    assert SECRET not in page.content.decode()
    body = {"name": "slack", "url": "", "events": EVENTS, "enabled": "on"}
    assert client.post(f"/webhooks/{hook.pk}/", body).status_code == 302
    hook.refresh_from_db()
    assert hook.url == URL


@pytest.mark.parametrize(("url", "shown"), [
    ("https://h.example.org", "https://h.example.org/"),
    ("https://h.example.org/", "https://h.example.org/"),
    ("https://h.example.org:8443/x", "https://h.example.org:8443/…"),
    ("https://h.example.org/?token=abc", "https://h.example.org/…"),
])  # fmt: skip
def test_everything_beyond_scheme_and_host_is_redacted(url, shown):
    assert secret_url.redacted(url) == shown


def test_the_migration_encrypts_urls_stored_in_the_clear(hook):
    from importlib import import_module

    migration = import_module("webhooks.migrations.0002_webhook_url_encrypted")
    with connection.cursor() as cursor:
        cursor.execute("UPDATE webhooks_webhook SET url = %s, url_redacted = '' WHERE id = %s", [URL, hook.pk])
    migration.encrypt_urls(None, SimpleNamespace(connection=connection))
    migration.encrypt_urls(None, SimpleNamespace(connection=connection))  # twice: already encrypted rows stay
    hook.refresh_from_db()
    assert hook.url == URL and hook.url_redacted == "https://hooks.example.com/…"
