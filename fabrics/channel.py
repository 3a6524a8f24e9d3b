"""Wake-ups of a fabric agent's long-poll: Redis pub/sub, one channel per fabric (one agent per fabric)."""

import contextlib
import time

import redis

from agents import longpoll

CHANNEL = "enclave:db{db}:fabric:{fabric}"


def _name(client: redis.Redis, fabric_id: int) -> str:
    db = client.connection_pool.connection_kwargs.get("db", 0)
    return CHANNEL.format(db=db, fabric=fabric_id)


def wake(fabric_id: int) -> None:
    """Publish that the fabric's desired state changed; a lost wake-up costs the agent one poll's wait."""
    client = longpoll.redis_client()
    with contextlib.suppress(redis.RedisError):  # the agent's next poll finds the new generation
        client.publish(_name(client, fabric_id), b"changed")


class Waiter:
    """Subscribed before the document is read, so a change between the read and the wait is not missed."""

    def __init__(self, fabric_id: int):
        client = longpoll.redis_client()
        self._pubsub = client.pubsub(ignore_subscribe_messages=True)
        self._pubsub.subscribe(_name(client, fabric_id))

    def wait(self, seconds: float) -> bool:
        """True when woken within `seconds`."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            if self._pubsub.get_message(timeout=min(left, 1.0)):
                return True
        return False

    def close(self) -> None:
        self._pubsub.close()
