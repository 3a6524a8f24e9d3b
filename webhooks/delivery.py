"""One delivery attempt: claim by compare-and-set, sign, send, record; retry 5xx and timeouts with backoff.

Retries: exponential backoff with full jitter (a random delay up to base * 2^attempt, capped), at most
settings.WEBHOOK_MAX_ATTEMPTS attempts. 2xx succeeds; a 408 or 429, any 5xx and no answer retry; other
4xx and 3xx (redirects are not followed) fail at once; so does a target the site refuses.
"""

import datetime
import json
import random

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from webhooks import outbound, signing
from webhooks.choices import SENDABLE, DeliveryState
from webhooks.models import Delivery, WebhookSecret

D = DeliveryState
RETRYABLE = {408, 429}


def backoff(attempt: int) -> float:
    """Seconds before the next attempt after `attempt` attempts (full jitter)."""
    ceiling = min(settings.WEBHOOK_BACKOFF_CAP, settings.WEBHOOK_BACKOFF_BASE * 2 ** max(attempt - 1, 0))
    return random.uniform(ceiling / 2, ceiling)


def claim(delivery_id: int) -> Delivery | None:
    """Take a due delivery for this worker (compare-and-set), or None if another has it or it is done."""
    now = timezone.now()
    # Longer than an attempt can take (outbound's deadline), so the sweep never hands a live send to another.
    until = now + datetime.timedelta(seconds=settings.WEBHOOK_TIMEOUT * outbound.ATTEMPT_TIMEOUTS + 30)
    due = Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now)
    taken = Delivery.objects.filter(due, pk=delivery_id, state__in=SENDABLE).update(
        state=D.SENDING, claimed_until=until, updated=now
    )
    if not taken:
        return None
    return Delivery.objects.select_related("webhook", "webhook__tenant").get(pk=delivery_id)


def active_secrets(webhook_id: int) -> list[str]:
    """The secrets that sign now: the newest, and older ones until they expire (rotation)."""
    rows = WebhookSecret.objects.filter(webhook_id=webhook_id).order_by("-created")
    now = timezone.now()
    return [s.secret for s in rows if s.expires_at is None or s.expires_at > now]  # decrypted by the field


def attempt(delivery_id: int) -> Delivery | None:
    """Send one attempt of a delivery if it is due and unclaimed; record the outcome; None if not taken."""
    delivery = claim(delivery_id)
    if delivery is None:
        return None
    if not delivery.webhook.enabled:
        return _record(delivery, outbound.Answer(None, 0, "the webhook is disabled: not sent"), final=True)
    body = json.dumps(delivery.payload, separators=(",", ":"), sort_keys=True)
    headers = signing.headers(delivery.message_id, body, active_secrets(delivery.webhook_id), timezone.now())
    try:
        answer = outbound.post(delivery.webhook.url, body, headers, settings.WEBHOOK_TIMEOUT)
    except outbound.Refused as exc:
        answer = outbound.Answer(None, 0, str(exc))
        return _record(delivery, answer, final=True)
    return _record(delivery, answer, final=_final(answer.status))


def _final(status: int | None) -> bool:
    """An answer no retry can change: a 3xx or a 4xx other than 408 and 429."""
    return status is not None and 300 <= status < 500 and status not in RETRYABLE


def _record(delivery: Delivery, answer: outbound.Answer, final: bool) -> Delivery:
    """Store the attempt; schedule the next one unless it succeeded, failed for good or ran out."""
    delivery.attempts += 1
    delivery.response_code, delivery.duration_ms = answer.status, answer.duration_ms
    ok = answer.status is not None and 200 <= answer.status < 300
    if ok:
        delivery.state, delivery.last_error, delivery.next_attempt_at = D.SUCCEEDED, "", None
    elif final or delivery.attempts >= settings.WEBHOOK_MAX_ATTEMPTS:
        delivery.state, delivery.next_attempt_at = D.FAILED, None
        delivery.last_error = _why(answer, final)
    else:
        delivery.state, delivery.last_error = D.RETRYING, _why(answer, final)
        delivery.next_attempt_at = timezone.now() + datetime.timedelta(seconds=backoff(delivery.attempts))
    delivery.claimed_until = None
    with transaction.atomic():
        Delivery.objects.filter(pk=delivery.pk, state=D.SENDING).update(
            state=delivery.state, attempts=delivery.attempts, response_code=answer.status,
            duration_ms=answer.duration_ms, last_error=delivery.last_error[:500],
            next_attempt_at=delivery.next_attempt_at, claimed_until=None, updated=timezone.now())  # fmt: skip
    return delivery


def _why(answer: outbound.Answer, final: bool) -> str:
    """The delivery log's short reason for a failed attempt."""
    if answer.status is None:
        return answer.detail or "no answer"
    if 300 <= answer.status < 400:
        return f"HTTP {answer.status}: redirects are not followed"
    prefix = f"HTTP {answer.status}" + (" (final: the receiver refused it)" if final else "")
    return f"{prefix}: {answer.detail[:200]}" if answer.detail else prefix
