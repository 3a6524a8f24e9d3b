"""The webhook pages and API: the secret shown once, the delivery log with replay, who sees what."""

import pytest
from django.urls import reverse

from webhooks import services
from webhooks.models import Delivery, Webhook

pytestmark = pytest.mark.django_db


def form(url="https://hooks.example.org/ci", **extra) -> dict:
    return {"tenant": "", "name": "ci", "url": url, "events": ["cluster.state_changed"], "enabled": "on", **extra}


def test_an_owner_creates_a_webhook_on_the_page_and_sees_its_secret_once(world, client):
    client.force_login(world.owner_a)
    response = client.post(reverse("webhooks:webhook-list"), form(tenant=str(world.tenant_a.pk), states="ready"))
    assert response.status_code == 200 and b"whsec_" in response.content
    hook = Webhook.objects.get(tenant=world.tenant_a)
    assert hook.conditions == {"states": ["ready"]}
    detail = client.get(reverse("webhooks:webhook-detail", args=[hook.pk]))
    assert b"whsec_" not in detail.content and hook.secrets.get().hint.encode() in detail.content


def test_a_loopback_url_on_the_page_is_refused_next_to_the_field(world, client):
    client.force_login(world.owner_a)
    response = client.post(
        reverse("webhooks:webhook-list"), form(url="https://127.0.0.1/x", tenant=str(world.tenant_a.pk))
    )
    assert b"Loopback, private, link-local and other non-public addresses are not allowed" in response.content
    assert not Webhook.objects.exists()


def test_the_api_shows_the_secret_on_create_only_and_members_see_no_webhooks(world, api):
    owner = api(world.owner_a)
    created = owner.post("/api/v1/webhooks/", {"tenant": world.tenant_a.pk, "name": "ci", "url": "https://h.example.org/",
                                               "events": ["cluster.state_changed"]}, format="json")  # fmt: skip
    assert created.status_code == 201 and created.json()["secret"].startswith("whsec_")
    shown = owner.get(f"/api/v1/webhooks/{created.json()['id']}/").json()
    assert "secret" not in shown and shown["secrets"][0]["hint"] == created.json()["secret"][-4:]
    assert api(world.member_a).get("/api/v1/webhooks/").json()["results"] == []
    rotated = owner.post(f"/api/v1/webhooks/{created.json()['id']}/rotate-secret/").json()
    assert rotated["secret"] != created.json()["secret"] and len(rotated["secrets"]) == 2


def test_the_delivery_log_replays_a_failed_delivery_and_refuses_one_still_being_tried(world, client):
    hook, _ = services.create_webhook(world.owner_a, world.tenant_a, {
        "name": "ci", "url": "https://hooks.example.org/a", "events": ["cluster.state_changed"]})  # fmt: skip
    failed = Delivery.objects.create(webhook=hook, tenant=world.tenant_a, event_type="webhook.test", payload={},
                                     state="failed", attempts=8, response_code=503, last_error="HTTP 503")  # fmt: skip
    trying = Delivery.objects.create(webhook=hook, tenant=world.tenant_a, event_type="webhook.test", payload={},
                                     state="retrying")  # fmt: skip
    client.force_login(world.owner_a)
    page = client.get(reverse("webhooks:webhook-detail", args=[hook.pk]))
    assert b"HTTP 503" in page.content and b"Replay" in page.content
    client.post(reverse("webhooks:delivery-replay", args=[failed.pk]))
    again = Delivery.objects.get(replay_of=failed)
    assert again.message_id == failed.message_id and again.state == "pending"
    response = client.post(reverse("webhooks:delivery-replay", args=[trying.pk]), follow=True)
    assert b"replay it once it has succeeded or failed" in response.content


def test_a_site_admin_names_the_tenant_by_slug_or_site_and_an_unknown_slug_is_an_error(world, client):
    client.force_login(world.admin)
    assert b"Create webhook" in client.get(reverse("webhooks:webhook-list")).content
    unknown = client.post(reverse("webhooks:webhook-list"), form(tenant="nope"))
    assert b"No tenant" in unknown.content and not Webhook.objects.exists()
    client.post(reverse("webhooks:webhook-list"), form(tenant="tenant-b"))
    client.post(reverse("webhooks:webhook-list"), form(tenant="site", name="noc"))
    assert {(h.tenant_id, h.name) for h in Webhook.objects.all()} == {(world.tenant_b.pk, "ci"), (None, "noc")}


def test_a_member_sees_no_create_form(world, client):
    client.force_login(world.member_a)
    page = client.get(reverse("webhooks:webhook-list"))
    assert b"Create webhook" not in page.content and b"Only a research group's PIs" in page.content
