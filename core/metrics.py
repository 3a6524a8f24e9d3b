"""The Prometheus registry and the counters every layer increments (the endpoint and collectors are portal's)."""

from prometheus_client import CollectorRegistry, Counter, Histogram

REGISTRY = CollectorRegistry(auto_describe=True)
REQUESTS = Counter("enclave_http_requests_total", "HTTP requests", ["method", "status"], registry=REGISTRY)
LATENCY = Histogram("enclave_http_request_seconds", "HTTP request latency", ["method"], registry=REGISTRY)
# A wake published while the long-poll listener was disconnected (a Redis failover) is lost: each
# resubscription wakes every parked poll to read its document again; this counts those catch-ups.
LONGPOLL_CATCHUPS = Counter("enclave_longpoll_catchups_total", "Long-poll listener resubscriptions that woke "
                            "every parked poll to catch up", registry=REGISTRY)  # fmt: skip
