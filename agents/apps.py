"""Agents app configuration."""

from django.apps import AppConfig


class AgentsConfig(AppConfig):
    """Server side of the Linux node agents: nodes, enrolment, desired and observed state."""

    name = "agents"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        """Connect the POSIX-account receiver (every other change calls tenants.network explicitly)."""
        from agents import receivers  # noqa: F401
