"""Agents app configuration."""

from django.apps import AppConfig


class AgentsConfig(AppConfig):
    """Server side of the Linux node agents: nodes, enrolment, desired and observed state."""

    name = "agents"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        """Connect the receivers that keep nodes' desired state current and refuse pool conflicts."""
        from agents import conflicts, receivers  # noqa: F401
        from agents.services import queue_refresh
        from netpolicy import propagation

        # Derived group addresses (VMs' addresses, site servers) change without a saved policy row.
        propagation.register("node-agents", lambda tenant_ids: queue_refresh())
