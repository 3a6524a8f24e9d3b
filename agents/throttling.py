"""Request rates of node agents: per node, not per address, in one Redis round trip.

Nodes behind one NAT or proxy share an address: the anonymous per-address rate (300/minute) would
throttle a site of 200 nodes polling twice a minute. A node's own credential names it, so its
rate is counted per node, in a fixed window (INCR + EXPIRE in one pipeline) on the long-polls'
shared connection pool: no per-request client or pickled history.
"""

import time

from django.conf import settings
from rest_framework import throttling

from agents import longpoll

KEY = "enclave:db{db}:node-rate:{node}:{window}"
PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: str | None) -> tuple[int, int] | None:
    """'120/minute' -> (120, 60); None (no rate) -> None."""
    if not rate:
        return None
    count, period = rate.split("/")
    return int(count), PERIODS[period[0]]


class NodeRateThrottle(throttling.BaseThrottle):
    """At most settings.API_RATES['node'] requests per node and window (429 + Retry-After beyond)."""

    def allow_request(self, request, view):
        rate = parse_rate(settings.API_RATES.get("node"))
        if rate is None or request.auth is None:
            return True
        limit, period = rate
        now = time.time()
        window = int(now // period)
        self.retry_after = (window + 1) * period - now
        client = longpoll.redis_client()
        db = client.connection_pool.connection_kwargs.get("db", 0)
        key = KEY.format(db=db, node=request.auth.pk, window=window)
        count, _ = client.pipeline(transaction=False).incr(key).expire(key, period * 2).execute()
        return count <= limit

    def wait(self):
        return self.retry_after
