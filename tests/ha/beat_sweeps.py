"""The portal's Celery app with its two sweeps every second, on the lease (the beat-under-load test)."""

from portal.celery import app

app.conf.beat_schedule = {
    "sweep-clusters": {"task": "tenants.tasks.sweep_clusters", "schedule": 1.0},
    "sweep-nodes": {"task": "agents.tasks.sweep", "schedule": 1.0},
}
