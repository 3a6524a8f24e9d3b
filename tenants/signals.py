"""Extension points other apps hook into (network policy defaults, reconcilers)."""

from django.db import transaction
from django.dispatch import Signal

# Sent inside the transaction that creates a tenant; receivers add their own default intent.
tenant_created = Signal()
# Sent before an approval is committed; receivers may raise a ServiceError to refuse it.
cluster_pre_approve = Signal()


def queue_reconcile(cluster) -> None:
    """Queue the cluster's reconciler once the current transaction commits."""
    from tenants.tasks import reconcile_cluster

    cluster_id = cluster.pk
    transaction.on_commit(lambda: reconcile_cluster.delay(cluster_id))
