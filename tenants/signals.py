"""Extension points other apps hook into (network policy defaults, reconcilers)."""

from django.db import transaction
from django.dispatch import Signal

# Sent inside the transaction that creates a tenant; receivers add their own default intent.
tenant_created = Signal()
# Sent before an approval is committed; receivers may raise a ServiceError to refuse it.
cluster_pre_approve = Signal()
# Sent inside the transaction that adds `user` to `tenant`, before the row exists; receivers may
# raise a ServiceError to refuse it (e.g. the node agents: one tenant network per user and node).
membership_pre_create = Signal()
# Sent inside the transaction that resizes a live cluster, with the new shape set on `cluster`
# (not yet saved); receivers reserve what the site needs (e.g. more VFs) or raise a ServiceError.
cluster_pre_resize = Signal()
# Sent after a cluster's intent changed and committed; a receiver returns True when it queued the
# reconciler of the site that realizes the cluster (e.g. vSphere).
cluster_intent_changed = Signal()


def queue_reconcile(cluster) -> None:
    """Hand the cluster to its site's reconciler once the current transaction commits."""
    cluster_id = cluster.pk
    transaction.on_commit(lambda: _dispatch(cluster_id))


def _dispatch(cluster_id: int) -> None:
    """Queue the site reconciler, or the core's placeholder when no site realizes clusters yet."""
    from tenants.models import VirtualCluster
    from tenants.tasks import reconcile_cluster

    responses = cluster_intent_changed.send(sender=VirtualCluster, cluster_id=cluster_id)
    if not any(handled for _, handled in responses):
        reconcile_cluster.delay(cluster_id)
