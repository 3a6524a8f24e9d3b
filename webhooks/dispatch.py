"""The outbox: committed audit events, read in commit order (the audit chain's seq), become deliveries.

Every change is already an audit event written in its own transaction, so reading the chain after a
cursor loses nothing and invents nothing: a rolled-back change has no event, and the chain's links are
appended at commit under a lock, so seq order is commit order and no event appears behind the cursor.
"""

from django.db import transaction
from django.db.models import Max, Q

from audit.models import AuditEvent, ChainLink
from tenants.models import Tenant
from webhooks import catalog
from webhooks.choices import SITE_ONLY
from webhooks.models import Delivery, OutboxCursor, Webhook

CURSOR = "audit"
BATCH = 500


def start_cursor() -> None:
    """Create the cursor at the chain's head (once): a new site's first webhook gets no history."""
    head = ChainLink.objects.aggregate(head=Max("seq"))["head"] or 0
    OutboxCursor.objects.bulk_create([OutboxCursor(name=CURSOR, seq=head)], ignore_conflicts=True)


def dispatch(batch: int = BATCH) -> list[int]:
    """Turn the next batch of committed events into deliveries and move the cursor; the new deliveries' ids."""
    with transaction.atomic():
        cursor = OutboxCursor.objects.select_for_update().filter(name=CURSOR).first()
        if cursor is None:  # no webhook was ever created (services start the cursor): nothing to read
            start_cursor()
            return []
        after = ChainLink.objects.filter(seq__gt=cursor.seq).order_by("seq")
        links = list(after.values_list("seq", "event_id")[:batch])
        if not links:
            return []
        events = AuditEvent.objects.in_bulk([event_id for _, event_id in links])
        raised = [(events[e], t) for _, e in links if e in events for t in catalog.event_types(events[e])]
        created = Delivery.objects.bulk_create(_deliveries(raised)) if raised else []
        cursor.seq = links[-1][0]
        cursor.save(update_fields=["seq", "updated"])
    return [d.pk for d in created]


def _deliveries(raised: list) -> list[Delivery]:
    """One delivery per (event type raised, enabled webhook that wants it and whose conditions pass)."""
    tenant_ids = {event.tenant_id for event, _ in raised if event.tenant_id}
    types = sorted({t for _, t in raised})
    hooks = list(Webhook.objects.filter(enabled=True, events__overlap=types)
                 .filter(Q(tenant__isnull=True) | Q(tenant__in=tenant_ids)))  # fmt: skip
    slugs = dict(Tenant.objects.filter(pk__in=tenant_ids).values_list("pk", "slug")) if hooks else {}
    out = []
    for event, event_type in raised:
        for hook in hooks:
            if not _wants(hook, event, event_type):
                continue
            body = catalog.message(event, event_type, slugs.get(event.tenant_id))
            if catalog.matches(hook.conditions, body):
                out.append(Delivery(webhook=hook, tenant_id=hook.tenant_id, event_id=event.pk,
                                    event_type=event_type, payload=body))  # fmt: skip
    return out


def _wants(hook: Webhook, event, event_type: str) -> bool:
    """A tenant's webhook hears its own tenant's events; a site webhook hears all, site-only ones included."""
    if event_type not in hook.events:
        return False
    if hook.tenant_id is None:
        return True
    return event_type not in SITE_ONLY and hook.tenant_id == event.tenant_id
