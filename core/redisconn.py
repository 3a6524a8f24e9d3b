"""Redis connections that follow the master: through Sentinel when ENCLAVE_REDIS_SENTINELS names any.

Without Sentinels every client is built from settings.REDIS_URL, as before. With them the URL's
database number and password still apply; the host and port come from the Sentinels' current master,
asked again whenever a connection is (re)made, so clients follow a failover on their own.
"""

import functools

import redis
from django.conf import settings
from redis.sentinel import Sentinel, SentinelConnectionPool

SENTINEL_TIMEOUT = 2  # seconds to wait for one Sentinel before asking the next


def sentinels() -> tuple[tuple[str, int], ...]:
    """The Sentinels (host, port) from settings.REDIS_SENTINELS ("host:port" strings)."""
    pairs = []
    for item in settings.REDIS_SENTINELS:
        host, _, port = item.rpartition(":")
        pairs.append((host.strip("[]"), int(port)))
    return tuple(pairs)


@functools.cache
def _manager(addresses: tuple[tuple[str, int], ...]) -> Sentinel:
    return Sentinel(list(addresses), socket_timeout=SENTINEL_TIMEOUT)


class SentinelPool(SentinelConnectionPool):
    """A pool of connections to the current master, built from a URL (Django's RedisCache `pool_class`)."""

    def __init__(self, **kwargs):
        kwargs.pop("host", None), kwargs.pop("port", None)  # the Sentinels say where the master is
        super().__init__(settings.REDIS_SENTINEL_MASTER, _manager(sentinels()), **kwargs)


def client(url: str | None = None, **options) -> redis.Redis:
    """A client for the current master (Sentinel-discovered when configured); options go to redis-py."""
    url = url or settings.REDIS_URL
    if not settings.REDIS_SENTINELS:
        return redis.Redis.from_url(url, **options)
    return redis.Redis(connection_pool=SentinelPool.from_url(url, **options))


def broker_url(url: str, sentinel_hosts: list[str]) -> str:
    """Kombu's URL for the broker: a `sentinel://` entry per Sentinel when there are any (settings)."""
    if not sentinel_hosts:
        return url
    tail = url.split("@", 1)[1] if "@" in url else url.split("://", 1)[1]
    credentials = url.split("://", 1)[1].split("@", 1)[0] + "@" if "@" in url else ""
    db = tail.split("/", 1)[1] if "/" in tail else "0"
    return ";".join(f"sentinel://{credentials}{host}/{db}" for host in sentinel_hosts)
