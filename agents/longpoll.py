"""Long-polls of node agents: Redis pub/sub wake-ups, one poll per node, a site-wide cap.

A node's newer long-poll ends its older one (409) rather than being refused: an agent that
restarted, or whose connection died without the server noticing, must not wait out its own ghost.
The cap counts live polls in a Redis sorted set (member: poll token, score: expiry), so it holds
across web processes and forgets polls of a process that died.
"""

import functools
import secrets
import time

import redis
from django.conf import settings
from rest_framework import exceptions, status

# Pub/sub ignores Redis database numbers: the channel names the database, so two sites (or two
# test processes) sharing one Redis server never wake each other's nodes.
CHANNEL = "enclave:db{db}:node:{node}"
ACTIVE = "enclave:longpoll:active"
OWNER = "enclave:longpoll:node:{}"
HOLD_SECONDS = 120  # longest a poll can be counted (the view waits at most 60 s)
CHANGED, REVOKED, SUPERSEDED = b"changed", b"revoked", b"superseded:"
PUBLISHERS = 100  # connections beyond the polls' own: acquire/release scripts, wake-ups

# KEYS: active set, node owner key, node channel. ARGV: now, cap, expiry, token, hold seconds.
_ACQUIRE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
redis.call('SET', KEYS[2], ARGV[4], 'EX', ARGV[5])
redis.call('PUBLISH', KEYS[3], 'superseded:' .. ARGV[4])
return 1
"""
_RELEASE = """
redis.call('ZREM', KEYS[1], ARGV[1])
if redis.call('GET', KEYS[2]) == ARGV[1] then redis.call('DEL', KEYS[2]) end
return 1
"""


class Superseded(exceptions.APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = "A newer long-poll of this node replaced this one."
    default_code = "superseded"


def redis_client() -> redis.Redis:
    """The process's client: one connection pool shared by every poll (redis-py resets it after a fork)."""
    return _client_for(settings.REDIS_URL, settings.AGENT_LONGPOLL_MAX)


@functools.cache
def _client_for(url: str, polls: int) -> redis.Redis:
    # Each parked poll holds a pub/sub connection from the pool for its whole wait; redis-py's default
    # cap (100) would refuse the 101st poll of a process, so the pool grows to the site-wide poll cap.
    return redis.Redis.from_url(url, socket_timeout=5, max_connections=polls + PUBLISHERS)


def _channel(client: redis.Redis, node_id: int) -> str:
    return CHANNEL.format(db=client.connection_pool.connection_kwargs.get("db", 0), node=node_id)


def wake(node_ids) -> None:
    """Tell every long-poll of these nodes that their desired state may have changed."""
    client = redis_client()
    for node_id in node_ids:
        client.publish(_channel(client, node_id), CHANGED)


def revoked(node_id: int) -> None:
    """End the node's long-poll now: its credential no longer exists."""
    client = redis_client()
    client.publish(_channel(client, node_id), REVOKED)


def active() -> int:
    """Long-polls currently counted against the cap (for tests and metrics)."""
    client = redis_client()
    client.zremrangebyscore(ACTIVE, "-inf", time.time())
    return client.zcard(ACTIVE)


class Waiter:
    """Subscribe first, then compute, then wait: a change in between is never missed.

    Raises Throttled (429 + Retry-After) when the site-wide cap is reached; ends an older poll of
    the same node; wait() raises Superseded or AuthenticationFailed when the poll must end.
    """

    def __init__(self, node_id: int):
        self.token = secrets.token_hex(8).encode()
        client = redis_client()
        self.keys = [ACTIVE, OWNER.format(node_id), _channel(client, node_id)]
        self.pubsub = client.pubsub(ignore_subscribe_messages=True)
        self.pubsub.subscribe(self.keys[2])
        now = time.time()
        args = [now, settings.AGENT_LONGPOLL_MAX, now + HOLD_SECONDS, self.token, HOLD_SECONDS]
        if not client.eval(_ACQUIRE, 3, *self.keys, *args):
            self.pubsub.close()
            raise exceptions.Throttled(wait=settings.AGENT_LONGPOLL_RETRY_AFTER,
                                       detail="Too many node long-polls at once; retry later.")  # fmt: skip
        self.client = client

    def wait(self, timeout: float) -> bool:
        """Block until a change arrives (True) or the timeout passes (False)."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            # One wake-up per poll: 2,000 parked threads waking every few seconds contend for the GIL.
            message = self.pubsub.get_message(timeout=left)
            data = message["data"] if message else None
            if data == CHANGED:
                return True
            if data == REVOKED:
                raise exceptions.AuthenticationFailed("Node credential revoked.")
            if isinstance(data, bytes) and data.startswith(SUPERSEDED) and data[len(SUPERSEDED) :] != self.token:
                raise Superseded()
        return False

    def close(self) -> None:
        try:
            self.client.eval(_RELEASE, 2, *self.keys[:2], self.token)
        finally:
            self.pubsub.close()
