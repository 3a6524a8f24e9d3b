"""Which webhook events an audit event raises, the message each carries, and the optional conditions on it."""

from django.utils import timezone

from webhooks.choices import (
    APPROVAL_ACTIONS,
    CLUSTER_STATE_ACTIONS,
    FIREWALL_PREFIXES,
    LEASE_WARNING_ACTION,
    NODE_ACTIONS,
    SEGMENT_STATE_ACTIONS,
    EventType,
)

NOT_READY = "not-ready"  # agents.choices.NodeStatus.NOT_READY, as the audit log records it
CONDITION_KEYS = {
    "states": "the state the object moved to",
    "objects": "the object's name as the audit log shows it (e.g. astro/mpi-1)",
    "tenants": "tenant slugs (site webhooks only)",
}


def _state(side) -> str | None:
    return (side or {}).get("state") if isinstance(side, dict) else None


def event_types(event) -> list[str]:
    """The webhook event types this audit event raises (most raise none)."""
    action, after, before = event.action, event.after or {}, event.before or {}
    found = []
    if action in CLUSTER_STATE_ACTIONS:
        found.append(EventType.CLUSTER_STATE)
    if action in APPROVAL_ACTIONS and (action != "segment.create" or after.get("state") == "requested"):
        found.append(EventType.APPROVAL_NEEDED)
    if action in SEGMENT_STATE_ACTIONS:
        found.append(EventType.SEGMENT_STATE)
    if action in NODE_ACTIONS and after.get("status") == NOT_READY and before.get("status") != NOT_READY:
        found.append(EventType.NODE_NOT_READY)
    if action == LEASE_WARNING_ACTION:
        found.append(EventType.LEASE_EXPIRING)
    if action.startswith(FIREWALL_PREFIXES):
        found.append(EventType.FIREWALL_CHANGED)
    return [str(t) for t in found]


def message(event, event_type: str, tenant_slug: str | None) -> dict:
    """The Standard Webhooks body: type, timestamp and the event's data (no secrets: audit masks them)."""
    return {
        "type": event_type,
        "timestamp": event.created.isoformat(),
        "data": {
            "tenant": tenant_slug,
            "object": {"type": event.object_type.split(".")[-1], "id": event.object_id, "name": event.object_repr},
            "action": event.action,
            "from_state": _state(event.before),
            "to_state": _state(event.after),
            "actor": event.actor_label,
            "message": event.message,
            "audit_event": event.pk,
        },
    }


def ping(webhook) -> dict:
    """The body of a test delivery."""
    return {"type": EventType.PING.value, "timestamp": timezone.now().isoformat(),
            "data": {"tenant": webhook.tenant.slug if webhook.tenant_id else None, "webhook": webhook.name,
                     "message": "A test delivery from Enclave."}}  # fmt: skip


def matches(conditions: dict, body: dict) -> bool:
    """Whether a message passes a webhook's conditions (every given key must match; none given: all pass)."""
    data = body["data"]
    values = {"states": data.get("to_state"), "objects": data["object"]["name"], "tenants": data.get("tenant")}
    return all(values[key] in allowed for key, allowed in (conditions or {}).items() if key in values)
