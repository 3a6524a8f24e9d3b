"""Redis connections that follow the master: through Sentinel when ENCLAVE_REDIS_SENTINELS names any.

Without Sentinels every client is built from settings.REDIS_URL, as before. With them the URL's
database number and password still apply; the host and port come from the Sentinels' current master.
"""

from urllib.parse import urlparse

import redis
from django.conf import settings
from redis.sentinel import Sentinel


def sentinels() -> list[tuple[str, int]]:
    """The Sentinels (host, port) from settings.REDIS_SENTINELS ("host:port" strings)."""
    pairs = []
    for item in settings.REDIS_SENTINELS:
        host, _, port = item.rpartition(":")
        pairs.append((host.strip("[]"), int(port)))
    return pairs


def _url_options(url: str) -> dict:
    parsed = urlparse(url)
    db = int(parsed.path.lstrip("/") or 0)
    return {"db": db, "password": parsed.password, "username": parsed.username or None}


def client(url: str | None = None, **options) -> redis.Redis:
    """A client for the current master (Sentinel-discovered when configured); options go to redis-py."""
    url = url or settings.REDIS_URL
    if not settings.REDIS_SENTINELS:
        return redis.Redis.from_url(url, **options)
    sentinel = Sentinel(sentinels(), socket_timeout=options.get("socket_timeout", 5))
    return sentinel.master_for(settings.REDIS_SENTINEL_MASTER, **_url_options(url), **options)
