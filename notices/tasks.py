"""Periodic work of the notices app."""

from celery import shared_task

from notices import services


@shared_task(name="notices.tasks.prune_notices")
def prune_notices() -> int:
    """Delete in-app notices past their retention (settings.NOTICE_RETENTION_DAYS)."""
    return services.prune()
