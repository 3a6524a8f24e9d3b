"""Who is acting right now: a context variable set by the web middleware, Celery and agents."""

import contextvars
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace

from django.db import models


class ActorKind(models.TextChoices):
    """The kind of principal that caused a change."""

    USER = "user", "User"
    WORKER = "worker", "Worker"
    AGENT = "agent", "Node agent"
    SYSTEM = "system", "System"


@dataclass(frozen=True)
class Actor:
    """The principal, request id and source address that audit events are attributed to."""

    kind: str = ActorKind.SYSTEM
    label: str = "system"
    user_id: int | None = None
    request_id: str = ""
    client_request_id: str = ""  # what the client sent as X-Request-ID, kept apart
    source_ip: str | None = None
    request: object = None  # the live HttpRequest: its user is only known after DRF authenticates

    def resolved(self) -> "Actor":
        """Return this actor with the user taken from the live request, if any."""
        user = getattr(self.request, "user", None)
        if user is None or not user.is_authenticated:
            return self
        return replace(self, kind=ActorKind.USER, label=user.get_username(), user_id=user.pk)


_current: contextvars.ContextVar[Actor | None] = contextvars.ContextVar("enclave_actor", default=None)


def new_request_id() -> str:
    """Return a fresh request id."""
    return uuid.uuid4().hex


def current_actor() -> Actor:
    """Return the actor of the running request, task or command, with its user resolved."""
    return (_current.get() or Actor()).resolved()


@contextmanager
def acting_as(actor: Actor) -> Iterator[Actor]:
    """Attribute everything recorded inside the block to `actor`."""
    token = _current.set(actor)
    try:
        yield actor
    finally:
        _current.reset(token)


def system_actor(label: str, kind: str = ActorKind.SYSTEM, request_id: str = "") -> Actor:
    """Return an actor for commands, workers and agents outside a web request."""
    return Actor(kind=kind, label=label, request_id=request_id or new_request_id())
