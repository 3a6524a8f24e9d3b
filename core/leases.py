"""Short leases in Redis that say "work on this object is queued or running", for the sweeps.

A queued task leases its objects for grace() seconds (settings.LEASE_SECONDS); a running one
renews the lease while it lives. A lost publish or a SIGKILLed worker leaves no lease after the
grace, so the periodic sweep (every SWEEP_INTERVAL seconds) queues the object again: lost work
resumes within about grace + SWEEP_INTERVAL seconds instead of the broker's visibility timeout.
"""

import contextlib
import threading

import redis
from django.conf import settings

from core import redisconn

SWEEP_INTERVAL = 30.0  # seconds between sweeps (the beat schedule in portal.settings)


def grace() -> int:
    """Seconds a queued or running task keeps its objects from being swept again."""
    return settings.LEASE_SECONDS


def _client() -> redis.Redis:
    return redisconn.client(socket_timeout=5)


def _key(kind: str, ident) -> str:
    return f"enclave:lease:{kind}:{ident}"


def take(kind: str, idents, seconds: int | None = None) -> None:
    """Lease these objects (queued work); a later take renews."""
    pipe = _client().pipeline(transaction=False)
    for ident in idents:
        pipe.set(_key(kind, ident), 1, ex=seconds or grace())
    pipe.execute()


def leased(kind: str, idents) -> set:
    """Which of these objects hold a lease (work queued or running)."""
    idents = list(idents)
    if not idents:
        return set()
    values = _client().mget([_key(kind, i) for i in idents])
    return {ident for ident, value in zip(idents, values, strict=True) if value is not None}


@contextlib.contextmanager
def holding(kind: str, idents):
    """Keep the objects leased while the block runs (renewed every third of the grace)."""
    idents = list(idents)
    stop = threading.Event()

    def renew():
        while not stop.wait(grace() / 3):
            with contextlib.suppress(redis.RedisError):
                take(kind, idents)

    with contextlib.suppress(redis.RedisError):
        take(kind, idents)
    keeper = threading.Thread(target=renew, daemon=True)
    keeper.start()
    try:
        yield
    finally:
        stop.set()
