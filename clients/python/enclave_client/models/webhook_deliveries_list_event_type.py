from enum import StrEnum


class WebhookDeliveriesListEventType(StrEnum):
    APPROVAL_NEEDED = "approval.needed"
    CLUSTER_STATE_CHANGED = "cluster.state_changed"
    FIREWALL_CHANGED = "firewall.changed"
    LEASE_EXPIRING = "lease.expiring"
    NODE_NOT_READY = "node.not_ready"
    SEGMENT_STATE_CHANGED = "segment.state_changed"
    WEBHOOK_TEST = "webhook.test"

    def __str__(self) -> str:
        return str(self.value)
