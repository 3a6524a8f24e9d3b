"""Production gunicorn settings (docker-compose.yml and benchmarks/site_scale.py use this file).

Node agents hold a long-poll open for up to a minute (agents.api.MAX_WAIT), each on a thread of
the gthread worker; a parked poll holds no database or Redis connection (agents.api,
agents.longpoll), only its socket and thread. So a web process needs a thread per node it serves
plus headroom for browsers and REST clients: ENCLAVE_WEB_THREADS >= nodes / (replicas * workers)
+ 100 (1,100 threads in each of 2 processes for 2,000 nodes). docs/benchmarks.md (site scale) has what was measured with
2,000 polling nodes on a 2-core machine (desired-state GET p50 19 ms, 11 ms unchanged).
"""

import os

bind = os.environ.get("ENCLAVE_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("ENCLAVE_WEB_WORKERS", "2"))
worker_class = "portal.gunicorn_worker.ThreadWorker"  # gthread; lingering closes off the event loop
threads = int(os.environ.get("ENCLAVE_WEB_THREADS", "1100"))
worker_connections = threads + 200  # gthread keeps (connections - threads) idle keep-alive sockets
timeout = 90  # above the longest long-poll (60 s): a parked poll is not a hung worker
graceful_timeout = 70
keepalive = 75
backlog = 4096  # a wake-up of a whole pool reconnects hundreds of agents at once
control_socket_disable = True  # no runtime control interface; replicas on one host would share its path
accesslog = os.environ.get("ENCLAVE_ACCESS_LOG") or None


def post_worker_init(worker):
    """Import every view, serializer and form now, not on the first requests a new process serves.

    (gc.freeze() here, which takes the 160,000 import-time objects out of full collections, was measured
    and not kept: two runs with it had the pages slower than the runs without; docs/benchmarks.md.)"""
    from django.apps import apps

    if apps.ready:  # a Django application (not the test server's plain WSGI one)
        from django.urls import get_resolver

        get_resolver().url_patterns  # noqa: B018 - the import is the point
