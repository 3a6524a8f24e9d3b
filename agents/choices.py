"""Enumerations of the agents app."""

from django.db import models


class NodeStatus(models.TextChoices):
    PENDING = "pending", "Pending (enrolled, no report yet)"
    READY = "ready", "Ready"
    NOT_READY = "not-ready", "NotReady"


class TenantNetworkStatus(models.TextChoices):
    """Mirrors enclave_agent.state.TenantStatus (the agent's report)."""

    READY = "ready", "Ready"
    NOT_READY = "not_ready", "Not ready"
    FAILED = "failed", "Failed"
