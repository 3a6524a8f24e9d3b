"""The portal's Celery app with one fast entry, sent to a queue no worker reads (the beat-lease tests)."""

import os

from core import redisconn
from portal.celery import app

app.conf.beat_schedule = {
    "ha-tick": {"task": "portal.tasks.heartbeat", "schedule": 0.5, "options": {"queue": os.environ["ENCLAVE_HA_QUEUE"]}}
}


@app.task(name="ha.record")
def record(key: str, label: str) -> None:
    """Append `label` to the Redis list `key`: which tasks a worker ran, in order (the fencing tests)."""
    redisconn.client().rpush(key, label)
