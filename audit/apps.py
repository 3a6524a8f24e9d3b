"""Audit app configuration."""

from django.apps import AppConfig


class AuditConfig(AppConfig):
    """Append-only change log of every intent change and state transition."""

    name = "audit"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        """Connect the Celery signal handlers that carry the request id into tasks."""
        from audit import celery_context  # noqa: F401
