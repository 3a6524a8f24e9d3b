"""Celery beat on exactly one host: a Redis lease (SET NX PX) with a fencing token guards the schedule.

Every host runs `celery beat` with this scheduler; only the lease holder sends the periodic tasks.
The holder renews every third of the lease; a holder that dies (SIGKILL, lost host) stops renewing
and another takes over once the lease lapses. A holder trusts its lease only until the time it
asked for it plus the lease's length (its own monotonic clock), so a paused holder stops sending
before a successor can start. Each acquisition increments an epoch (the fencing token), stamped on
every task it sends (header enclave_beat_epoch); workers (FencedTask, every task's base class) drop a
task whose epoch is older than the current one, so a holder that lost its lease while its tasks were in
flight (paused, partitioned) cannot run the schedule a second time beside its successor.
"""

import contextlib
import logging
import os
import socket
import time
import uuid

import redis
from celery import Task
from celery.beat import PersistentScheduler
from celery.exceptions import Ignore
from django.conf import settings

from core import redisconn

log = logging.getLogger(__name__)
EPOCH_HEADER = "enclave_beat_epoch"

# Take the lease if free (new epoch), renew it if ours (same epoch); 0 when another holds it.
_ACQUIRE = """
if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return redis.call('incr', KEYS[2])
end
if redis.call('get', KEYS[1]) == ARGV[1] then
  redis.call('pexpire', KEYS[1], ARGV[2])
  return tonumber(redis.call('get', KEYS[2]) or '0')
end
return 0
"""
# Delete the lease only while it is ours (a clean shutdown hands over at once).
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


class BeatLease:
    """One process's claim on the schedule, renewed by hold()."""

    def __init__(self, client: redis.Redis, key: str, seconds: float):
        self.client, self.key, self.seconds = client, key, seconds
        self.holder = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.epoch, self.valid_until, self.renewed_at = 0, 0.0, 0.0

    def hold(self) -> bool:
        """True while this process holds the lease; renews it when a third of it has passed."""
        now = time.monotonic()
        if now < self.valid_until and now - self.renewed_at < self.seconds / 3:
            return True
        try:
            epoch = int(self.client.eval(_ACQUIRE, 2, self.key, epoch_key(self.key), self.holder,
                                         int(self.seconds * 1000)))  # fmt: skip
        except redis.RedisError as error:
            log.warning("beat lease: Redis unreachable (%s); not sending", error)
            epoch = 0
        if epoch and epoch != self.epoch:
            log.info("beat lease: %s holds the schedule (epoch %s)", self.holder, epoch)
        self.epoch = epoch
        self.renewed_at, self.valid_until = now, (now + self.seconds if epoch else 0.0)
        return bool(epoch)

    def release(self) -> None:
        """Hand the lease back if it is ours."""
        if self.epoch:
            with contextlib.suppress(redis.RedisError):  # it lapses by itself
                self.client.eval(_RELEASE, 1, self.key, self.holder)
        self.epoch, self.valid_until = 0, 0.0


class LeasedScheduler(PersistentScheduler):
    """A persistent beat schedule that runs only while this process holds the beat lease."""

    def __init__(self, *args, **kwargs):
        self.lease = None
        if settings.BEAT_LEASE:
            client = redisconn.client(socket_timeout=max(1.0, settings.BEAT_LEASE_SECONDS / 3))
            self.lease = BeatLease(client, settings.BEAT_LEASE_KEY, settings.BEAT_LEASE_SECONDS)
        super().__init__(*args, **kwargs)

    def tick(self, *args, **kwargs):
        """One scheduler step while holding the lease; otherwise wait a third of a lease and ask again."""
        if self.lease is None:
            return super().tick(*args, **kwargs)
        if not self.lease.hold():
            return self.lease.seconds / 3
        return min(super().tick(*args, **kwargs), self.lease.seconds / 3)

    def apply_async(self, entry, producer=None, advance=True, **kwargs):
        """Send a due task stamped with the lease's epoch (the fencing token)."""
        if self.lease is not None:
            headers = dict(entry.options.get("headers") or {}, **{EPOCH_HEADER: self.lease.epoch})
            entry.options = dict(entry.options, headers=headers)
        return super().apply_async(entry, producer=producer, advance=advance, **kwargs)

    def close(self):
        """Release the lease on a clean stop, so another beat takes over without waiting for it to lapse."""
        super().close()
        if self.lease is not None:
            self.lease.release()


def epoch_key(lease_key: str) -> str:
    """The Redis counter of lease acquisitions: the current holder's epoch (the fencing token)."""
    return lease_key + ":epoch"


def fenced_key() -> str:
    """The Redis counter of tasks dropped for a stale epoch (read by the metrics collector)."""
    return settings.BEAT_LEASE_KEY + ":fenced"


def superseded(epoch: int) -> bool:
    """True when a later beat lease holder exists than the one that sent a task stamped `epoch`."""
    try:
        client = redisconn.client(socket_timeout=2)
        current = int(client.get(epoch_key(settings.BEAT_LEASE_KEY)) or 0)
        if epoch >= current:
            return False
        client.incr(fenced_key())
    except redis.RedisError as error:  # the lease itself stops a second sender; do not lose the run too
        log.warning("beat fencing: Redis unreachable (%s); running a task of epoch %s unchecked", error, epoch)
        return False
    log.warning("beat fencing: dropped a task of epoch %s (the current holder's epoch is %s)", epoch, current)
    return True


class FencedTask(Task):
    """Every task's base class: one sent by a beat whose lease was since taken over is dropped unrun."""

    def __call__(self, *args, **kwargs):
        epoch = getattr(self.request, EPOCH_HEADER, None)
        if epoch is not None and settings.BEAT_FENCING and superseded(int(epoch)):
            raise Ignore()  # no result, no retry: the current holder sends this schedule entry itself
        return super().__call__(*args, **kwargs)
