"""Agents app configuration."""

from django.apps import AppConfig

from netpolicy import node_pools


class AgentsConfig(AppConfig):
    """Server side of the Linux node agents: nodes, enrolment, desired and observed state."""

    name = "agents"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        """Connect the receivers (POSIX accounts); register the membership check and the segments' node pools."""
        from agents import conflicts, receivers, segment_pools  # noqa: F401
        from tenants import hooks

        hooks.MEMBERSHIP_CHECKS["agents-pool-conflict"] = conflicts.refuse_membership_overlap
        node_pools.register(segment_pools.SegmentPools())
        node_pools.register_check(conflicts.refuse_segment_overlap)
