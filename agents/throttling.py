"""Request rates of node agents: per node, not per address, in one Redis round trip.

Nodes behind one NAT or proxy share an address: the anonymous per-address rate (300/minute) would
throttle a site of 200 nodes polling twice a minute. A node's own credential names it, so its
rate is counted per node, in a fixed window (INCR + EXPIRE in one pipeline) on the long-polls'
shared connection pool: no per-request client or pickled history.
"""

import time

import redis
from django.conf import settings
from rest_framework import throttling

from agents import longpoll

KEY = "enclave:db{db}:{scope}-rate:{agent}:{window}"


class NodeRateThrottle(throttling.SimpleRateThrottle):
    """At most settings.API_RATES[scope] requests per agent (request.auth) and window (429 + Retry-After beyond).

    Subclasses count another kind of agent by setting `scope` (its rate and its Redis keys)."""

    scope = "node"
    clock = staticmethod(time.time)  # tests fix it, so a burst never straddles two windows

    def get_rate(self):
        return settings.API_RATES.get(self.scope)

    def allow_request(self, request, view):
        if self.rate is None or request.auth is None:
            return True
        now = self.clock()
        window = int(now // self.duration)
        self.retry_after = (window + 1) * self.duration - now
        client = longpoll.redis_client()
        db = client.connection_pool.connection_kwargs.get("db", 0)
        key = KEY.format(db=db, scope=self.scope, agent=request.auth.pk, window=window)
        try:
            count, _ = client.pipeline(transaction=False).incr(key).expire(key, self.duration * 2).execute()
        except redis.RedisError as error:
            raise longpoll.Unavailable() from error
        return count <= self.num_requests

    def wait(self):
        return self.retry_after
