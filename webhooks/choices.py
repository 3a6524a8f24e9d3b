"""Webhook event types, which audit actions raise them, and the delivery state machine, as data."""

from django.db import models


class EventType(models.TextChoices):
    """What a webhook can subscribe to (Standard Webhooks' `type`)."""

    CLUSTER_STATE = "cluster.state_changed", "A cluster changed state"
    APPROVAL_NEEDED = "approval.needed", "A request waits for an approval"
    SEGMENT_STATE = "segment.state_changed", "A segment changed state (approved, realized, retired)"
    NODE_NOT_READY = "node.not_ready", "A node became NotReady (site webhooks only)"
    LEASE_EXPIRING = "lease.expiring", "A cluster's lease ends soon"
    FIREWALL_CHANGED = "firewall.changed", "A firewall policy, rule or group changed"
    PING = "webhook.test", "A test delivery sent on request"


# Events without a tenant: only site webhooks (tenant = null) may subscribe to them.
SITE_ONLY = frozenset({EventType.NODE_NOT_READY})
SUBSCRIBABLE = [t for t in EventType if t != EventType.PING]

CLUSTER_STATE_ACTIONS = frozenset({
    "cluster.submit", "cluster.endorse", "cluster.approve", "cluster.reject", "cluster.withdraw",
    "cluster.provisioning", "cluster.ready", "cluster.error", "cluster.degraded", "cluster.decommission",
    "cluster.lease_expired", "cluster.retired",
})  # fmt: skip
SEGMENT_STATE_ACTIONS = frozenset({"segment.approve", "segment.reject", "segment.retire", "segment.ready",
                                   "segment.error"})  # fmt: skip
# Requests that wait for someone: a submitted cluster (its PI endorses), an endorsed one (a site admin
# approves), a requested segment, a lease extension, a service request.
APPROVAL_ACTIONS = frozenset({"cluster.submit", "cluster.endorse", "segment.create", "lease_extension.request",
                              "service.request"})  # fmt: skip
FIREWALL_PREFIXES = ("firewall_policy.", "firewall_rule.", "group.")
NODE_ACTIONS = frozenset({"node.observed", "node.silent"})
LEASE_WARNING_ACTION = "cluster.lease_warning"


class DeliveryState(models.TextChoices):
    """One message to one endpoint: queued, being sent, waiting to retry, or done either way."""

    PENDING = "pending", "Pending"
    SENDING = "sending", "Sending"
    RETRYING = "retrying", "Retrying"
    SUCCEEDED = "succeeded", "Succeeded"
    FAILED = "failed", "Failed"


D = DeliveryState
# Allowed moves; a worker claims a delivery by compare-and-set from one of SENDABLE to SENDING.
DELIVERY_MOVES = {
    D.PENDING: {D.SENDING, D.FAILED},
    D.RETRYING: {D.SENDING, D.FAILED},
    D.SENDING: {D.SUCCEEDED, D.RETRYING, D.FAILED},
    D.SUCCEEDED: set(),
    D.FAILED: set(),
}
SENDABLE = (D.PENDING, D.RETRYING)
FINAL = (D.SUCCEEDED, D.FAILED)
