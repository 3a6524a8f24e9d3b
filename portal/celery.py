"""The Celery application: workers reconcile intent; beat runs the periodic checks."""

import os

from celery import Celery
from celery.signals import worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")

app = Celery("portal", task_cls="portal.beat:FencedTask")  # drops tasks of a superseded beat
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
app.autodiscover_tasks(["portal"])


@worker_ready.connect
def _announce_worker(**_):
    """Write the first heartbeat as soon as a worker is up, so /healthz need not wait for beat."""
    from portal.tasks import heartbeat

    heartbeat()
