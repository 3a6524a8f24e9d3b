"""Webhook intent: validate, check who may change it, lock, audit in the same transaction, queue on commit."""

import datetime
import re

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from audit.services import record, snapshot
from core.errors import Conflict, Forbidden, InvalidRequest
from tenants.access import is_owner, is_site_admin
from tenants.models import Tenant
from webhooks import catalog, dispatch, outbound, secret_url, signing, tasks
from webhooks.choices import FINAL, SITE_ONLY, SUBSCRIBABLE, EventType
from webhooks.models import NAME, Delivery, Webhook, WebhookSecret

CONDITION_VALUE = re.compile(r"\A[A-Za-z0-9_./:-]{1,100}\Z")
FIELDS = ("name", "url", "events", "conditions", "enabled")


def may_manage(user, tenant_id) -> bool:
    """A tenant's owners and site admins manage its webhooks; only site admins the site's (tenant None)."""
    return is_site_admin(user) or (tenant_id is not None and is_owner(user, tenant_id))


def _require(user, tenant_id) -> None:
    if not may_manage(user, tenant_id):
        raise Forbidden("Only the tenant's owners (PIs) and site admins manage its webhooks; "
                        "site webhooks are for site admins.")  # fmt: skip


def audit_view(hook: Webhook) -> dict:
    """The webhook as the audit log keeps it: the URL only as scheme://host/… and its fingerprint (the path
    and query may hold the receiver's secret, and every member of the tenant reads the audit log)."""
    data = snapshot(hook)
    data["url"] = secret_url.shown(data.pop("url_redacted"), data.pop("url_fingerprint"))
    return data


def _clean(hook: Webhook, data: dict) -> None:
    """Apply and check the writable fields (raises InvalidRequest naming the field)."""
    for key in FIELDS:
        if key in data:
            setattr(hook, key, data[key])
    try:
        NAME(hook.name)
    except ValidationError as exc:
        raise InvalidRequest(exc.messages[0], field="name") from exc
    try:
        outbound.check_url(hook.url)
    except ValueError as exc:
        raise InvalidRequest(str(exc), field="url") from exc
    hook.url_redacted, hook.url_fingerprint = secret_url.redacted(hook.url), secret_url.fingerprint(hook.url)
    hook.events = _events(hook)
    hook.conditions = _conditions(hook)


def _events(hook: Webhook) -> list[str]:
    events = sorted(set(hook.events or []))
    known = {str(t) for t in SUBSCRIBABLE}
    if not events or not set(events) <= known:
        raise InvalidRequest(f"Choose one or more events of: {', '.join(sorted(known))}.", field="events")
    if hook.tenant_id is not None and set(events) & SITE_ONLY:
        raise InvalidRequest("node.not_ready is a site event: only site webhooks subscribe to it.", field="events")
    return events


def _conditions(hook: Webhook) -> dict:
    conditions = hook.conditions or {}
    if not isinstance(conditions, dict) or not set(conditions) <= set(catalog.CONDITION_KEYS):
        raise InvalidRequest(f"Conditions take the keys {', '.join(catalog.CONDITION_KEYS)}.", field="conditions")
    if "tenants" in conditions and hook.tenant_id is not None:
        raise InvalidRequest("Only site webhooks filter by tenant.", field="conditions")
    for key, values in conditions.items():
        if not isinstance(values, list) or not 0 < len(values) <= 50 or \
                not all(isinstance(v, str) and CONDITION_VALUE.match(v) for v in values):  # fmt: skip
            raise InvalidRequest(f"conditions.{key} is a list of 1-50 names (letters, digits, _ . / : -).",
                                 field="conditions")  # fmt: skip
    return conditions


def _add_secret(hook: Webhook) -> str:
    plain = signing.new_secret()
    WebhookSecret.objects.create(webhook=hook, secret=plain, hint=plain[-4:])  # the field encrypts it
    return plain


def _check_room(tenant_id: int) -> None:
    """At most WEBHOOK_MAX_PER_TENANT per tenant (the tenant's row is locked: concurrent creates queue)."""
    Tenant.objects.select_for_update().filter(pk=tenant_id).first()
    if Webhook.objects.filter(tenant_id=tenant_id).count() >= settings.WEBHOOK_MAX_PER_TENANT:
        raise Conflict(f"A tenant has at most {settings.WEBHOOK_MAX_PER_TENANT} webhooks.")


def create_webhook(user, tenant, data: dict) -> tuple[Webhook, str]:
    """A new webhook and its first secret, returned in plaintext this once."""
    tenant_id = getattr(tenant, "pk", tenant)
    _require(user, tenant_id)
    hook = Webhook(tenant_id=tenant_id, created_by=user if user and user.is_authenticated else None)
    _clean(hook, data)
    dispatch.start_cursor()
    with transaction.atomic():
        if tenant_id is not None:
            _check_room(tenant_id)
        if Webhook.objects.filter(tenant_id=tenant_id, name=hook.name).exists():
            raise InvalidRequest("A webhook of that name exists already.", field="name")
        hook.save()
        plain = _add_secret(hook)
        record("webhook.create", hook, after=audit_view(hook), tenant=tenant_id)
    return hook, plain


def update_webhook(user, hook: Webhook, data: dict) -> Webhook:
    """Change a webhook's URL, events, conditions or switch it off (its tenant never changes)."""
    _require(user, hook.tenant_id)
    with transaction.atomic():
        current = Webhook.objects.select_for_update().get(pk=hook.pk)
        before = audit_view(current)
        _clean(current, data)
        if Webhook.objects.filter(tenant_id=current.tenant_id, name=current.name).exclude(pk=current.pk).exists():
            raise InvalidRequest("A webhook of that name exists already.", field="name")
        current.save()
        record("webhook.update", current, before=before, after=audit_view(current), tenant=current.tenant_id)
    return current


def delete_webhook(user, hook: Webhook) -> None:
    """Forget a webhook, its secrets and its delivery log."""
    _require(user, hook.tenant_id)
    with transaction.atomic():
        current = Webhook.objects.select_for_update().get(pk=hook.pk)
        record("webhook.delete", current, before=audit_view(current), tenant=current.tenant_id)
        current.delete()


def rotate_secret(user, hook: Webhook) -> str:
    """A new secret (returned once); the old ones keep signing for WEBHOOK_SECRET_OVERLAP_HOURS, then stop."""
    _require(user, hook.tenant_id)
    until = timezone.now() + datetime.timedelta(hours=settings.WEBHOOK_SECRET_OVERLAP_HOURS)
    with transaction.atomic():
        current = Webhook.objects.select_for_update().get(pk=hook.pk)
        current.secrets.filter(expires_at__isnull=True).update(expires_at=until)
        current.secrets.filter(expires_at__lt=timezone.now()).delete()
        plain = _add_secret(current)
        record("webhook.rotate_secret", current, tenant=current.tenant_id,
               message=f"New secret …{plain[-4:]}; older secrets sign until {until:%Y-%m-%d %H:%M} UTC.")  # fmt: skip
    return plain


def replay(user, delivery: Delivery) -> Delivery:
    """Send a finished delivery again, as a new delivery with the same message id (receivers may dedupe)."""
    _require(user, delivery.tenant_id if delivery.tenant_id else delivery.webhook.tenant_id)
    if delivery.state not in FINAL:
        raise Conflict(f"The delivery is {delivery.state}: replay it once it has succeeded or failed.")
    with transaction.atomic():
        again = Delivery.objects.create(webhook_id=delivery.webhook_id, tenant_id=delivery.tenant_id,
                                        event_id=delivery.event_id, event_type=delivery.event_type,
                                        message_id=delivery.message_id, payload=delivery.payload,
                                        replay_of=delivery)  # fmt: skip
        record("webhook.replay", again, after=snapshot(again), tenant=again.tenant_id,
               message=f"Replay of delivery {delivery.pk} ({delivery.event_type}).")  # fmt: skip
        transaction.on_commit(lambda: tasks.queue([again.pk]))
    return again


def send_test(user, hook: Webhook) -> Delivery:
    """Queue a webhook.test delivery to check the endpoint and its signature verification."""
    _require(user, hook.tenant_id)
    with transaction.atomic():
        delivery = Delivery.objects.create(webhook=hook, tenant_id=hook.tenant_id, event_type=EventType.PING,
                                           payload=catalog.ping(hook))  # fmt: skip
        record("webhook.test", delivery, after=snapshot(delivery), tenant=hook.tenant_id)
        transaction.on_commit(lambda: tasks.queue([delivery.pk]))
    return delivery
