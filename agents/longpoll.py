"""Long-polls of node agents: Redis pub/sub wake-ups, one poll per node, a site-wide cap.

A node's newer long-poll ends its older one (409) rather than being refused: an agent that
restarted, or whose connection died without the server noticing, must not wait out its own ghost.
The cap counts live polls in a Redis sorted set (member: poll token, score: expiry), so it holds
across web processes and forgets polls of a process that died.
"""

import contextlib
import functools
import logging
import os
import secrets
import threading
import time

import redis
from django.conf import settings
from rest_framework import exceptions, status

from core import metrics, redisconn

logger = logging.getLogger(__name__)

# Pub/sub ignores Redis database numbers: the channel names the database, so two sites (or two
# test processes) sharing one Redis server never wake each other's nodes.
CHANNEL = "enclave:db{db}:node:{node}"
ACTIVE = "enclave:longpoll:active"
OWNER = "enclave:longpoll:node:{}"
HOLD_SECONDS = 120  # longest a poll can be counted (the view waits at most 60 s)
CHANGED, REVOKED, SUPERSEDED = b"changed", b"revoked", b"superseded:"
PUBLISHERS = 100  # connections beyond the polls' own: acquire/release scripts, wake-ups
LISTEN_TIMEOUT = 5  # seconds a poll waits for the process's listener to be subscribed
HEALTH_CHECK = 15  # seconds of silence after which the listener pings Redis (finds a dead connection)
RECONNECT_AFTER, RECONNECT_MAX = 0.5, 30  # seconds between the listener's tries to reach Redis again
LISTENER_NAME = "enclave-longpoll"  # CLIENT LIST name of each process's listener (+ its pid)

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


class Unavailable(exceptions.APIException):
    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_detail = "The site's Redis cannot be reached now; retry shortly."
    default_code = "unavailable"
    wait = 5  # DRF's handler turns this into Retry-After


def redis_client() -> redis.Redis:
    """The process's client: one connection pool for commands (redis-py resets it after a fork)."""
    return _client_for(settings.REDIS_URL, settings.AGENT_LONGPOLL_MAX)


@functools.cache
def _client_for(url: str, polls: int) -> redis.Redis:
    # A parked poll holds no connection (the listener below), but every request thread may run a
    # command at once: the pool may grow as far as there are polls, not to redis-py's default (100).
    return redisconn.client(url, socket_timeout=5, max_connections=polls + PUBLISHERS)


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
    """Listen first, then compute, then wait: a change in between is never missed.

    Raises Throttled (429 + Retry-After) when the site-wide cap is reached, Unavailable (503) when
    Redis cannot be heard; ends an older poll of the same node; wait() raises Superseded or
    AuthenticationFailed when the poll must end.
    """

    def __init__(self, node_id: int, before_waiting=lambda: None):
        self.before_waiting = before_waiting  # called before blocking on a listener that is not live
        self.token = secrets.token_hex(8).encode()
        client = redis_client()
        self.keys = [ACTIVE, OWNER.format(node_id), _channel(client, node_id)]
        self.listener = _listener_for(settings.REDIS_URL)
        self.slot = self.listener.add(self.keys[2].encode(), SUPERSEDED + self.token)
        try:
            self.client = self._acquire(client)
        except BaseException:
            self.listener.discard(self.slot)
            raise

    def _acquire(self, client: redis.Redis) -> redis.Redis:
        now = time.time()
        args = [now, settings.AGENT_LONGPOLL_MAX, now + HOLD_SECONDS, self.token, HOLD_SECONDS]
        if not self.listener.live.is_set():
            self.before_waiting()  # the caller hands back what others need (its database connection)
        if not self.listener.live.wait(LISTEN_TIMEOUT):
            raise Unavailable("Wake-ups cannot be heard now (Redis); retry shortly.")
        try:
            acquired = client.eval(_ACQUIRE, 3, *self.keys, *args)
        except redis.RedisError as error:
            raise Unavailable() from error
        if not acquired:
            raise exceptions.Throttled(wait=settings.AGENT_LONGPOLL_RETRY_AFTER,
                                       detail="Too many node long-polls at once; retry later.")  # fmt: skip
        return client

    def wait(self, timeout: float) -> bool:
        """Block until a change arrives (True) or the timeout passes (False)."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            # One wake-up per poll: 2,000 parked threads waking every few seconds contend for the GIL.
            if not self.slot.event.wait(left):
                return False
            messages = self.listener.take(self.slot)
            if REVOKED in messages:
                raise exceptions.AuthenticationFailed("Node credential revoked.")
            if any(m.startswith(SUPERSEDED) and m[len(SUPERSEDED) :] != self.token for m in messages):
                raise Superseded()
            if CHANGED in messages:
                return True
        return False

    def close(self) -> None:
        self.listener.discard(self.slot)
        try:
            self.client.eval(_RELEASE, 2, *self.keys[:2], self.token)
        except redis.RedisError as error:  # the poll's count expires by itself (HOLD_SECONDS)
            logger.warning("long-poll release failed: %s", error)


class _Slot:
    """One parked poll's mailbox: the messages of its node's channel since it last looked."""

    __slots__ = ("channel", "own", "messages", "event")

    def __init__(self, channel: bytes, own: bytes):
        self.channel, self.own, self.messages, self.event = channel, own, [], threading.Event()


class _Listener:
    """The process's one pattern subscription to every node's channel, handing messages to parked polls.

    A poll used to hold a pub/sub connection of its own: a connect, HELLO and SUBSCRIBE per renewal
    (a quarter of a renewal's CPU, measured) and a Redis client per parked node. Messages published
    while the connection is down are lost, so every (re)subscription wakes every parked poll: each
    reads its document again, and one whose document did not change stays parked (agents.api).
    """

    def __init__(self, url: str, pattern: str):
        self.pid, self.live, self.subscriptions = os.getpid(), threading.Event(), 0
        self._slots: dict[bytes, set[_Slot]] = {}
        self._lock = threading.Lock()
        # Held for the listener's life: a collected client closes its pool, and with it the socket the
        # subscription reads (seen at random under load, when the cyclic collector got to it).
        self._client = redisconn.client(url, socket_timeout=LISTEN_TIMEOUT, health_check_interval=HEALTH_CHECK,
                                            client_name=f"{LISTENER_NAME}-{self.pid}")  # fmt: skip
        self._pubsub = self._client.pubsub()
        self._pattern = pattern
        self._stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, name="enclave-longpoll-listener", daemon=True)
        self.thread.start()

    def stop(self) -> None:
        """End the thread (a process done with this Redis, and tests): a message on its pattern wakes it now."""
        self._stopped.set()
        with contextlib.suppress(redis.RedisError):  # Redis gone: the thread is between tries, which this ends
            self._client.publish(self._pattern.replace("*", "stop"), b"-")

    def add(self, channel: bytes, own: bytes) -> _Slot:
        slot = _Slot(channel, own)
        with self._lock:
            self._slots.setdefault(channel, set()).add(slot)
        return slot

    def discard(self, slot: _Slot) -> None:
        with self._lock:
            slots = self._slots.get(slot.channel, set())
            slots.discard(slot)
            if not slots:
                self._slots.pop(slot.channel, None)

    def take(self, slot: _Slot) -> list[bytes]:
        with self._lock:
            messages, slot.messages = slot.messages, []
            slot.event.clear()
        return messages

    def _deliver(self, slots, data: bytes) -> None:
        for slot in slots:
            if data == slot.own:  # a poll's own announcement would wake its thread for nothing (every renewal)
                continue
            slot.messages.append(data)
            slot.event.set()

    def _run(self) -> None:
        """Listen until stopped: without this thread every poll of the process is a 503, so no error ends it."""
        pause = RECONNECT_AFTER
        while not self._stopped.is_set():
            try:
                self._listen()
            except Exception as error:  # noqa: BLE001 - Redis, socket, or redis-py's own state (ValueError)
                if self.live.is_set():
                    logger.warning("long-poll listener lost Redis (%r); reconnecting", error)
                    pause = RECONNECT_AFTER
                self._renew()
            self.live.clear()
            self._stopped.wait(pause)
            pause = min(pause * 2, RECONNECT_MAX)
        with contextlib.suppress(Exception):  # stopped: the subscription's connection goes, whatever its state
            self._pubsub.reset()

    def _renew(self) -> None:
        """A new subscription object for the next try (the old connection's state is unknown)."""
        try:
            self._pubsub.reset()
        except Exception:  # noqa: BLE001 - it is being thrown away
            logger.debug("long-poll listener: reset failed", exc_info=True)
        self._pubsub = self._client.pubsub()

    def _listen(self) -> None:
        self._pubsub.psubscribe(self._pattern)  # redis-py subscribes again itself after a reconnect
        while not self._stopped.is_set():
            message = self._pubsub.get_message(timeout=HEALTH_CHECK)
            if message is None:
                continue
            if message["type"] == "psubscribe":  # (re)subscribed: anything may have been missed
                with self._lock:
                    self._deliver([s for slots in self._slots.values() for s in slots], CHANGED)
                self.subscriptions += 1
                if self.subscriptions > 1:  # the first subscription follows nothing that could be missed
                    metrics.LONGPOLL_CATCHUPS.inc()
                self.live.set()
            elif message["type"] == "pmessage":
                with self._lock:
                    self._deliver(self._slots.get(message["channel"], ()), message["data"])


_listeners: dict[str, _Listener] = {}
_listeners_lock = threading.Lock()


def _listener_for(url: str) -> _Listener:
    """This process's listener for this Redis (a forked child starts its own)."""
    listener = _listeners.get(url)
    if listener is None or listener.pid != os.getpid():
        with _listeners_lock:
            listener = _listeners.get(url)
            if listener is None or listener.pid != os.getpid():
                client = redis_client()
                pattern = CHANNEL.format(db=client.connection_pool.connection_kwargs.get("db", 0), node="*")
                listener = _listeners[url] = _Listener(url, pattern)
    return listener
