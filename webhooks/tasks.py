"""Celery tasks of the webhooks app: read the outbox, send deliveries, sweep up lost ones."""

import datetime

from celery import shared_task
from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from core import leases
from webhooks import delivery, dispatch
from webhooks.choices import SENDABLE, DeliveryState
from webhooks.models import Delivery

LEASE = "webhook-delivery"


def queue(delivery_ids, countdown: float = 0) -> None:
    """Queue attempts (after commit, by the caller), leased so the sweep leaves them alone meanwhile."""
    ids = list(delivery_ids)
    if not ids:
        return
    leases.take(LEASE, ids, seconds=int(countdown) + leases.grace())
    for pk in ids:
        send_delivery.apply_async((pk,), countdown=countdown or None)


@shared_task(name="webhooks.tasks.dispatch")
def dispatch_events() -> int:
    """Turn new audit events into deliveries (woken after each commit, and by beat) and queue them."""
    total = 0
    while ids := dispatch.dispatch():
        queue(ids)
        total += len(ids)
    return total


@shared_task(name="webhooks.tasks.send_delivery")
def send_delivery(delivery_id: int) -> str:
    """One attempt; a retry is queued with its backoff (and found by the sweep if that publish is lost)."""
    with leases.holding(LEASE, [delivery_id]):
        done = delivery.attempt(delivery_id)
    if done is None:
        return "not due"
    if done.state == DeliveryState.RETRYING:
        wait = max((done.next_attempt_at - timezone.now()).total_seconds(), 0)
        queue([done.pk], countdown=wait)
    return done.state


@shared_task(name="webhooks.tasks.sweep")
def sweep() -> int:
    """Re-queue due deliveries nobody holds, and release ones whose worker died mid-send."""
    now = timezone.now()
    Delivery.objects.filter(state=DeliveryState.SENDING, claimed_until__lt=now).update(
        state=DeliveryState.RETRYING, next_attempt_at=now, last_error="the worker stopped mid-send"
    )
    due = Delivery.objects.filter(
        Q(next_attempt_at__lte=now) | Q(next_attempt_at__isnull=True),
        state__in=SENDABLE,
        created__lt=now - datetime.timedelta(seconds=settings.WEBHOOK_SWEEP_GRACE),
    )
    ids = list(due.order_by("pk").values_list("pk", flat=True)[:1000])
    held = leases.leased(LEASE, ids)
    lost = [pk for pk in ids if pk not in held]
    queue(lost)
    return len(lost)
