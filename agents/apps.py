"""Agents app configuration."""

from django.apps import AppConfig


class AgentsConfig(AppConfig):
    """Server side of the Linux node agents: nodes, enrolment, desired and observed state."""

    name = "agents"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        """Connect the receivers: POSIX accounts, and refusal of pool conflicts (network changes are explicit calls)."""
        from agents import conflicts, receivers  # noqa: F401
