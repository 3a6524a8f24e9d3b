"""Celery tasks: the sweep that recompiles every fabric's desired state (a missed hook or wake-up heals here)."""

from celery import shared_task
from django.db import transaction
from django.db.models import F

from fabrics import channel, desired
from fabrics.models import Fabric


@shared_task
def sync_fabrics() -> int:
    """Recompile each fabric's desired state from intent; wake the agents of those behind (lost wake-ups)."""
    changed = 0
    for fabric in Fabric.objects.only("pk"):
        with transaction.atomic():
            changed += desired.sync(fabric)
    for fabric_id in Fabric.objects.exclude(applied_generation=F("generation")).values_list("pk", flat=True):
        channel.wake(fabric_id)
    return changed
