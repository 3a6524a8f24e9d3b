"""Celery tasks of the tenants app."""

import datetime

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from audit.services import record
from core import leases
from notices.services import once
from tenants import notifications, realizers, services
from tenants.choices import LIVE_STATES, RECONCILED_STATES, Role
from tenants.models import Membership, VirtualCluster


@shared_task
def expire_leases() -> int:
    """Start decommissioning every live cluster whose lease has ended."""
    expired = VirtualCluster.objects.filter(state__in=LIVE_STATES, lease_end__lt=timezone.localdate())
    return sum(1 for cluster in expired if services.expire_lease(cluster) is not None)


@shared_task
def warn_expiring_leases() -> int:
    """Warn requesters and owners LEASE_WARNING_DAYS before a lease ends, each warning once (recorded)."""
    today = timezone.localdate()
    days = sorted(settings.LEASE_WARNING_DAYS)
    if not days:
        return 0
    ending = (VirtualCluster.objects.filter(state__in=LIVE_STATES, lease_end__gte=today,
                                            lease_end__lte=today + datetime.timedelta(days=days[-1]))
              .select_related("tenant", "requested_by").order_by("lease_end", "pk"))  # fmt: skip
    ending = list(ending)
    owners = _owners_of({c.tenant_id for c in ending})
    sent = 0
    for cluster in ending:
        # The nearest threshold not yet passed: a cluster found late gets one warning, not three.
        threshold = min(d for d in days if d >= (cluster.lease_end - today).days)
        sent += _warn(cluster, [cluster.requested_by, *owners.get(cluster.tenant_id, [])], threshold)
    return sent


def _warn(cluster, people, threshold: int) -> int:
    """One lease warning to these people (1), unless this threshold's was already sent (0)."""
    with transaction.atomic():
        if not once(f"lease-warning:{cluster.pk}:{cluster.lease_end}:{threshold}"):
            return 0
        notifications.lease_warning(cluster, people)
        # Recorded: the warning is an event automation subscribes to (webhooks' lease.expiring).
        after = {"lease_end": cluster.lease_end.isoformat(), "days_left": threshold, "state": cluster.state}
        record("cluster.lease_warning", cluster, tenant=cluster.tenant_id, after=after,
               message=f"The lease ends on {cluster.lease_end} ({threshold} days or less).")  # fmt: skip
    return 1


def _owners_of(tenant_ids) -> dict:
    owners = {}
    memberships = Membership.objects.filter(tenant__in=tenant_ids, role=Role.OWNER).select_related("user")
    for membership in memberships:
        owners.setdefault(membership.tenant_id, []).append(membership.user)
    return owners


@shared_task
def send_admin_digest() -> int:
    """Periodic: one digest to each site admin while more than NOTICE_DIGEST_THRESHOLD items wait."""
    with transaction.atomic():
        return notifications.admin_digest()


@shared_task
def sweep_clusters() -> int:
    """Periodic: queue again every cluster whose intent is ahead of what its site observed and
    whose reconcile is neither queued nor running (a lost publish, a SIGKILLed worker)."""
    behind = VirtualCluster.objects.filter(state__in=RECONCILED_STATES).exclude(observed_generation=F("generation"))
    ids = list(behind.values_list("pk", flat=True))
    busy = leases.leased(realizers.LEASE, ids)
    lost = [pk for pk in ids if pk not in busy]
    return sum(1 for pk in lost if realizers.realize(pk))
