"""Project-wide periodic tasks."""

import time

from celery import shared_task

from core import redisconn

HEARTBEAT_KEY = "enclave:worker-heartbeat"


@shared_task
def heartbeat() -> float:
    """Record that a worker is consuming the queue (read by /healthz)."""
    now = time.time()
    redisconn.client().set(HEARTBEAT_KEY, now, ex=300)
    return now
