"""Wake-ups for long-polling agents over Redis pub/sub."""

import time

import redis
from django.conf import settings

CHANNEL = "enclave:node:{}"


def _client() -> redis.Redis:
    return redis.Redis.from_url(settings.REDIS_URL, socket_timeout=5)


def wake(node_ids) -> None:
    """Tell every long-poll of these nodes that their desired state may have changed."""
    client = _client()
    for node_id in node_ids:
        client.publish(CHANNEL.format(node_id), b"changed")


class Waiter:
    """Subscribe first, then compute, then wait: a change in between is never missed."""

    def __init__(self, node_id: int):
        self.pubsub = _client().pubsub(ignore_subscribe_messages=True)
        self.pubsub.subscribe(CHANNEL.format(node_id))

    def wait(self, timeout: float) -> bool:
        """Block until a wake-up arrives (True) or the timeout passes (False)."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            if self.pubsub.get_message(timeout=min(left, 5.0)) is not None:
                return True
        return False

    def close(self) -> None:
        self.pubsub.close()
