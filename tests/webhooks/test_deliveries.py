"""Deliveries, sent in this process against a real receiver on 127.0.0.1: signing, retries, finality,
redirects, timeouts, rotation, replay, and which webhook hears which event (the outbox's matching)."""

import datetime

import pytest
from django.utils import timezone

from core import crypto
from tenants import services as tenant_services
from tests.conftest import service_data
from webhooks import delivery, dispatch, services, tasks
from webhooks.choices import DeliveryState
from webhooks.models import Delivery

pytestmark = pytest.mark.django_db(transaction=True)


def deliver_all() -> list[Delivery]:
    """Read the outbox and send every due attempt now (ignoring backoff), until nothing is due."""
    ids = dispatch.dispatch()
    while due := list(Delivery.objects.filter(state__in=["pending", "retrying"]).values_list("pk", flat=True)):
        Delivery.objects.filter(pk__in=due).update(next_attempt_at=None)  # no waiting out the backoff here
        for pk in due:
            delivery.attempt(pk)
    return list(Delivery.objects.filter(pk__in=ids).order_by("pk")) if ids else []


def submit(world, name="mpi-1"):
    return tenant_services.create_cluster(world.tenant_a, world.member_a, service_data(name=name), submit=True)


def test_a_submitted_cluster_reaches_the_owners_receiver_signed_with_its_secret(hook_a, world, receiver):
    submit(world)
    sent = deliver_all()
    assert {d.event_type for d in sent} == {"cluster.state_changed", "approval.needed"}
    assert all(d.state == DeliveryState.SUCCEEDED and d.attempts == 1 and d.response_code == 200 for d in sent)
    assert len(receiver.received) == 2 and all(r.verifies_with(hook_a.plain_secret) for r in receiver.received)
    message = next(r.message for r in receiver.received if r.message["type"] == "cluster.state_changed")
    assert message["data"]["tenant"] == "tenant-a" and message["data"]["to_state"] == "submitted"
    assert message["data"]["object"]["name"] == "tenant-a/mpi-1"
    assert receiver.received[0].path == "/hooks/enclave?source=test"


def test_a_receiver_that_fails_then_recovers_gets_the_message_with_one_id(hook_a, world, receiver):
    hook_a.events = ["cluster.state_changed"]
    hook_a.save()
    receiver.script = [(503, 0, {}), (500, 0, {}), (200, 0, {})]
    submit(world)
    [sent] = deliver_all()
    assert sent.state == DeliveryState.SUCCEEDED and sent.attempts == 3
    assert len({r.headers["webhook-id"] for r in receiver.received}) == 1 == len({sent.message_id})


def test_a_5xx_is_retried_later_with_backoff_and_jitter(hook_a, world, receiver):
    receiver.script = [(503, 0, {})]
    delivery_id = Delivery.objects.create(webhook=hook_a, tenant=world.tenant_a, event_type="webhook.test",
                                          payload={"type": "webhook.test"}).pk  # fmt: skip
    before = timezone.now()
    done = delivery.attempt(delivery_id)
    assert done.state == DeliveryState.RETRYING and done.last_error.startswith("HTTP 503")
    waited = (done.next_attempt_at - before).total_seconds()
    assert 0.4 < waited < 2.5
    assert delivery.attempt(delivery_id) is None and len(receiver.received) == 1  # not due yet: nothing sent


def test_backoff_doubles_up_to_its_cap_with_full_jitter(lab):
    lab.WEBHOOK_BACKOFF_BASE, lab.WEBHOOK_BACKOFF_CAP = 5.0, 60.0
    samples = {attempt: [delivery.backoff(attempt) for _ in range(200)] for attempt in (1, 2, 3, 8)}
    assert all(2.5 <= s <= 5 for s in samples[1]) and all(5 <= s <= 10 for s in samples[2])
    assert all(30 <= s <= 60 for s in samples[8]) and len(set(samples[3])) > 100  # jitter: no two alike


def test_a_4xx_is_final_and_a_replay_sends_it_again_with_the_same_id(hook_a, world, receiver):
    receiver.script = [(400, 0, {})]
    submit(world)
    sent = deliver_all()
    failed = [d for d in sent if d.state == DeliveryState.FAILED]
    assert len(failed) == 1 and failed[0].attempts == 1 and "final" in failed[0].last_error
    again = services.replay(world.owner_a, failed[0])
    deliver_all()
    again.refresh_from_db()
    assert again.state == DeliveryState.SUCCEEDED and again.replay_of_id == failed[0].pk
    assert receiver.received[-1].headers["webhook-id"] == failed[0].message_id
    assert receiver.received[-1].verifies_with(hook_a.plain_secret)


def test_a_redirect_is_not_followed_and_fails_the_delivery(hook_a, world, receiver):
    receiver.script = [(302, 0, {"Location": "http://169.254.169.254/latest/meta-data/"})]
    delivery_id = services.send_test(world.owner_a, hook_a).pk
    done = delivery.attempt(delivery_id)
    assert done.state == DeliveryState.FAILED and "redirects are not followed" in done.last_error
    assert len(receiver.received) == 1


def test_a_slow_receiver_times_out_and_the_retry_gets_through(hook_a, world, receiver):
    receiver.script = [(200, 3.5, {})]  # longer than the 2 s timeout
    delivery_id = services.send_test(world.owner_a, hook_a).pk
    first = delivery.attempt(delivery_id)
    assert first.state == DeliveryState.RETRYING and "timed out" in first.last_error.lower()
    assert 1900 <= first.duration_ms < 3400
    Delivery.objects.filter(pk=delivery_id).update(next_attempt_at=None)
    assert delivery.attempt(delivery_id).state == DeliveryState.SUCCEEDED


def test_after_a_rotation_both_secrets_sign_until_the_old_one_expires(hook_a, world, receiver):
    new = services.rotate_secret(world.owner_a, hook_a)
    delivery.attempt(services.send_test(world.owner_a, hook_a).pk)
    request = receiver.received[-1]
    assert request.verifies_with(new) and request.verifies_with(hook_a.plain_secret)
    assert len(request.headers["webhook-signature"].split(" ")) == 2
    hook_a.secrets.exclude(hint=new[-4:]).update(expires_at=timezone.now())
    delivery.attempt(services.send_test(world.owner_a, hook_a).pk)
    assert receiver.received[-1].verifies_with(new) and not receiver.received[-1].verifies_with(hook_a.plain_secret)


def test_the_secret_is_stored_encrypted(hook_a):
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT secret FROM webhooks_webhooksecret WHERE webhook_id = %s", [hook_a.pk])
        stored = cursor.fetchone()[0]
    assert hook_a.plain_secret not in stored and hook_a.plain_secret[6:] not in stored
    assert crypto.decrypt(stored) == hook_a.plain_secret == hook_a.secrets.get().secret  # encrypted once, by the field


def test_a_tenant_hears_only_its_own_events_and_the_site_hears_all(hook_a, world, receiver):
    hook_b, _ = services.create_webhook(world.owner_b, world.tenant_b, {
        "name": "b", "url": receiver.url, "events": ["cluster.state_changed"]})  # fmt: skip
    site, _ = services.create_webhook(world.admin, None, {
        "name": "noc", "url": receiver.url, "events": ["cluster.state_changed"]})  # fmt: skip
    submit(world)
    sent = deliver_all()
    assert {(d.webhook_id, d.event_type) for d in sent} == {
        (hook_a.pk, "cluster.state_changed"),
        (hook_a.pk, "approval.needed"),
        (site.pk, "cluster.state_changed"),
    }
    assert not Delivery.objects.filter(webhook=hook_b).exists()


def test_conditions_keep_only_the_states_asked_for(hook_a, world):
    services.update_webhook(world.owner_a, hook_a, {"events": ["cluster.state_changed"],
                                                    "conditions": {"states": ["ready", "error"]}})  # fmt: skip
    cluster = submit(world)
    tenant_services.endorse_cluster(cluster, world.owner_a)
    assert deliver_all() == []


def test_a_node_going_not_ready_reaches_site_webhooks_only(lab, world, receiver):
    from agents import services as agents

    site, _ = services.create_webhook(world.admin, None, {"name": "noc", "url": receiver.url,
                                                          "events": ["node.not_ready"]})  # fmt: skip
    pool = agents.create_pool("rack")
    _, raw = agents.create_join_token(pool)
    node, _ = agents.join(raw, "n1", {})
    an_hour_ago = timezone.now() - datetime.timedelta(hours=1)
    agents.Node.objects.filter(pk=node.pk).update(status="ready", last_seen=an_hour_ago)
    assert agents.mark_silent_nodes() == 1
    [sent] = deliver_all()
    assert sent.webhook_id == site.pk and receiver.received[-1].message["data"]["object"]["name"] == "n1"


def test_a_change_rolled_back_raises_nothing_and_a_lost_wake_is_found_by_the_next_read(hook_a, world):
    from django.db import transaction

    with pytest.raises(RuntimeError), transaction.atomic():
        submit(world)
        raise RuntimeError("rolled back")
    assert deliver_all() == []
    submit(world, "mpi-2")  # its wake goes nowhere (no worker); the periodic read finds it
    assert len(dispatch.dispatch()) == 2 and dispatch.dispatch() == []


def test_a_delivery_whose_worker_died_mid_send_is_sent_again_by_the_sweep(hook_a, world, receiver, monkeypatch):
    queued = []
    monkeypatch.setattr(tasks, "queue", lambda ids, countdown=0: queued.extend(ids))
    delivery_id = services.send_test(world.owner_a, hook_a).pk
    queued.clear()  # its own queueing after commit: lost
    now = timezone.now()
    Delivery.objects.filter(pk=delivery_id).update(
        state="sending", created=now - datetime.timedelta(minutes=5), claimed_until=now - datetime.timedelta(seconds=1)
    )
    assert tasks.sweep() == 1 and queued == [delivery_id]
    assert delivery.attempt(delivery_id).state == DeliveryState.SUCCEEDED


def test_a_delivery_queued_before_its_webhook_was_disabled_is_not_sent(hook_a, world, receiver):
    delivery_id = services.send_test(world.owner_a, hook_a).pk
    services.update_webhook(world.owner_a, hook_a, {"enabled": False})
    done = delivery.attempt(delivery_id)
    assert done.state == DeliveryState.FAILED and "disabled" in done.last_error and receiver.received == []
