"""Recording audit events; callers must already be inside the transaction that changes intent."""

import datetime
import decimal
import threading
import uuid

from celery import current_app
from django.conf import settings
from django.db import connection, models, transaction

from audit.context import current_actor
from audit.models import AuditEvent

WAKE_AFTER = 0.5  # seconds: commits within it share one wake of the outbox readers
_wake_lock = threading.Lock()
_wake_timer: threading.Timer | None = None
_new_timer = threading.Timer  # the wake's clock; tests put a timer they fire themselves in its place
SECRET_FIELDS = {"password", "password_encrypted", "token_hash", "secret", "credential_hash", "stamp"}


def _jsonable(value):
    """Convert a model field value to something JSON can hold."""
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, decimal.Decimal | uuid.UUID):
        return str(value)
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value


def snapshot(obj: models.Model) -> dict:
    """Return the concrete field values of `obj` as JSON (foreign keys by id, secrets masked)."""
    data = {}
    for field in obj._meta.concrete_fields:
        value = getattr(obj, field.attname)
        data[field.name] = "********" if field.name in SECRET_FIELDS and value else _jsonable(value)
    return data


def record(
    action: str,
    obj: models.Model,
    *,
    before: dict | None = None,
    after: dict | None = None,
    tenant=None,
    message: str = "",
) -> AuditEvent:
    """Write one audit event attributed to the current actor; refuses to run outside a transaction."""
    event = _event(action, obj, before, after, tenant, message)
    event.save(force_insert=True)
    return event


def record_many(action: str, changes: list[tuple[models.Model, dict | None, dict | None]], *, tenant=None,
                message: str = "") -> list[AuditEvent]:  # fmt: skip
    """One event per (object, before, after), as record() writes them, in one INSERT (objects made in bulk)."""
    return AuditEvent.objects.bulk_create(
        [_event(action, obj, before, after, tenant, message) for obj, before, after in changes]
    )


def _event(action: str, obj: models.Model, before, after, tenant, message: str) -> AuditEvent:
    """The unsaved event of one change, attributed to the current actor, inside its transaction."""
    if not connection.in_atomic_block:
        raise RuntimeError("audit.record must run inside the transaction that changes intent")
    actor = current_actor()
    _wake_outbox_readers()
    return AuditEvent(
        actor_kind=actor.kind,
        actor_label=actor.label[:150],
        actor_id=actor.user_id,
        tenant_id=getattr(tenant, "pk", tenant),
        action=action,
        object_type=obj._meta.label_lower,
        object_id=str(obj.pk),
        object_repr=str(obj)[:200],
        before=before,
        after=after,
        message=message,
        request_id=actor.request_id,
        client_request_id=actor.client_request_id,
        source_ip=actor.source_ip,
    )


def _wake_outbox_readers() -> None:
    """Once per transaction, after it commits, wake the tasks that read the log as an outbox (by name: the
    audit app imports none of them); their periodic run finds the events if this wake is lost."""
    if any(func is _publish_wake for _, func, _ in connection.run_on_commit):
        return
    transaction.on_commit(_publish_wake, robust=True)


def _publish_wake() -> None:
    """Wake the readers once for every commit of the next WAKE_AFTER seconds, after them all.

    A fleet's start or a pool's change is 200-2,000 node reports, each an audited commit: one task
    message per commit had the workers reading the outbox thousands of times for a few events."""
    global _wake_timer
    with _wake_lock:
        if _wake_timer is not None:
            return  # a wake is due after this commit anyway
        _wake_timer = _new_timer(WAKE_AFTER, _send_wake)
        _wake_timer.daemon = True
        _wake_timer.start()


def _send_wake() -> None:
    global _wake_timer
    with _wake_lock:
        _wake_timer = None  # first: a commit from now on gets a wake of its own
    for task in settings.AUDIT_OUTBOX_TASKS:
        current_app.send_task(task)
