"""Project-wide periodic tasks."""

import time

import redis
from celery import shared_task
from django.conf import settings

HEARTBEAT_KEY = "enclave:worker-heartbeat"


@shared_task
def heartbeat() -> float:
    """Record that a worker is consuming the queue (read by /healthz)."""
    now = time.time()
    redis.Redis.from_url(settings.REDIS_URL).set(HEARTBEAT_KEY, now, ex=300)
    return now
