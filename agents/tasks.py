"""Celery tasks of the agents app: compile desired state, sweep lost work, silent nodes."""

import datetime
import logging

from celery import shared_task
from django.db.models import F
from django.utils import timezone

from agents import longpoll, refresh, services, sources
from agents.models import Node, NodePool
from core import leases
from netpolicy.models import SiteSettings
from tenants.models import Tenant
from tenants.network import LEASE, queue_refresh, queue_site_refresh

LIVE_POLL = datetime.timedelta(seconds=90)  # a node heard from this recently is long-polling


@shared_task(acks_late=True)
def refresh_desired(tenant_ids=None) -> dict:
    """Compile these tenants' share of nodes' desired state (None: everything), bump, wake."""
    with leases.holding(LEASE, ["all"] if tenant_ids is None else tenant_ids):
        return refresh.refresh(tenant_ids)


log = logging.getLogger(__name__)


@shared_task(acks_late=True)
def refresh_site() -> dict:
    """After a site object's change: the tenant parts it changed, every pool, bump, wake."""
    with leases.holding(LEASE, ["site"]):
        return refresh.refresh_site()


@shared_task(acks_late=True)
def assemble_pool(pool_id: int) -> int:
    """Re-assemble one pool's document (its nodes changed what they read); bump, wake."""
    return len(refresh.assemble_pool(pool_id, sources.site_share()))


@shared_task
def sweep() -> dict:
    """Periodic: queue again what a lost publish or a killed worker left undone."""
    return {"site": _sweep_site(), "tenants": _sweep_tenants(), "pools": _sweep_pools(), "nodes": _sweep_nodes()}


def _sweep_site() -> int:
    """A site object's change whose refresh was lost (its generation ahead of the observed one)."""
    if leases.leased(LEASE, ["all", "site"]):
        return 0
    behind = SiteSettings.objects.filter(pk=1).exclude(network_observed_generation=F("network_generation"))
    if not behind.exists():
        return 0
    queue_site_refresh()
    return 1


def _sweep_tenants() -> int:
    """Tenants (and their overlay segments) whose network intent is ahead of what is compiled."""
    if leases.leased(LEASE, ["all"]):
        return 0
    behind = Tenant.objects.exclude(network_observed_generation=F("network_generation"))
    dirty = set(behind.values_list("pk", flat=True))
    segments = sources.overlay_segments().exclude(observed_generation=F("generation"))
    dirty |= set(segments.values_list("tenant_id", flat=True))
    lost = sorted(dirty - leases.leased(LEASE, dirty))
    if lost:
        queue_refresh(lost)
    return len(lost)


def _sweep_pools() -> int:
    """Nodes without their own part yet, and pools never assembled (e.g. after an upgrade)."""
    count = 0
    for pool in NodePool.objects.filter(nodes__desired_node="").distinct():
        count += len(refresh.store_node_parts(pool))
    unassembled = NodePool.objects.filter(document__isnull=True)
    if unassembled.exists():
        dirty = Tenant.objects.exclude(network_observed_generation=F("network_generation"))
        waiting = {pool for pool, _ in sources.placements(dirty.values_list("pk", flat=True))}
        site = None
        for pool in unassembled.exclude(pk__in=waiting):  # never assemble around uncompiled tenants
            site = site or sources.site_share()
            count += len(refresh.assemble_pool(pool.pk, site))
    return count


def _sweep_nodes() -> int:
    """Wake live nodes that have not applied their generation (a wake-up may have been lost)."""
    recent = timezone.now() - LIVE_POLL
    ids = list(Node.objects.filter(last_seen__gte=recent).exclude(applied_generation=F("desired_generation"))
               .values_list("pk", flat=True))  # fmt: skip
    longpoll.wake(ids)
    return len(ids)


@shared_task
def refresh_everything() -> dict:
    """Periodic safety net for intent changed outside the services (a shell, a restore)."""
    return refresh_desired(None)


@shared_task
def mark_silent_nodes() -> int:
    """Periodic: nodes that stopped long-polling become NotReady."""
    return services.mark_silent_nodes()
