"""Agents app configuration."""

from django.apps import AppConfig


class AgentsConfig(AppConfig):
    """Server side of the Linux node agents: nodes, enrolment, desired and observed state."""

    name = "agents"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        """Connect the receivers (POSIX accounts, segment pool conflicts); register the membership check."""
        from agents import conflicts, receivers  # noqa: F401
        from tenants import hooks

        hooks.MEMBERSHIP_CHECKS["agents-pool-conflict"] = conflicts.refuse_membership_overlap
