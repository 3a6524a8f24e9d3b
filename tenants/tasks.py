"""Celery tasks of the tenants app."""

from celery import shared_task
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from audit.services import record
from portal import leases
from tenants import realizers, services
from tenants.choices import LIVE_STATES, RECONCILED_STATES
from tenants.models import VirtualCluster


@shared_task
def reconcile_cluster(cluster_id: int) -> str:
    """Placeholder reconciler: records that it ran and changes nothing (vSphere lands separately)."""
    cluster = VirtualCluster.objects.filter(pk=cluster_id).first()
    if cluster is None:
        return "gone"
    with transaction.atomic():
        record("cluster.reconcile", cluster, tenant=cluster.tenant_id, message="no reconciler configured")
    return "noop"


@shared_task
def expire_leases() -> int:
    """Start decommissioning every live cluster whose lease has ended."""
    expired = VirtualCluster.objects.filter(state__in=LIVE_STATES, lease_end__lt=timezone.localdate())
    return sum(1 for cluster in expired if services.expire_lease(cluster) is not None)


@shared_task
def sweep_clusters() -> int:
    """Periodic: queue again every cluster whose intent is ahead of what its site observed and
    whose reconcile is neither queued nor running (a lost publish, a SIGKILLed worker)."""
    behind = VirtualCluster.objects.filter(state__in=RECONCILED_STATES).exclude(observed_generation=F("generation"))
    ids = list(behind.values_list("pk", flat=True))
    busy = leases.leased(realizers.LEASE, ids)
    lost = [pk for pk in ids if pk not in busy]
    return sum(1 for pk in lost if realizers.realize(pk))
