"""Tell the nodes' side that tenants' network intent changed: called explicitly by the services.

The agents app compiles each node's desired state from segments, firewall policy and members;
the services that change those call `network_changed` in their transaction. It bumps the
tenants' network generation at once and queues the compile after commit, by task name, so the
apps below `agents` keep pointing down. A publish lost after commit leaves the generation ahead
of the observed one, and the agents app's sweep queues it again.
"""

from celery import current_app
from django.db import transaction
from django.db.models import F

from core import leases
from tenants.models import Tenant

REFRESH_TASK = "agents.tasks.refresh_desired"
SITE_REFRESH_TASK = "agents.tasks.refresh_site"
LEASE = "network"  # leases: tenant ids, "all" for a site-wide compile, "site" after a site object's change
# Site apps above agents (fabrics) follow node-facing changes inside their transaction: listener(tenant_ids=,
# pool_id=), tenant_ids None for every tenant.
_LISTENERS: dict = {}


def listen(name: str, listener) -> None:
    """Register a listener of node-facing changes (from a site app's AppConfig.ready)."""
    _LISTENERS[name] = listener


def node_ports_changed(pool_id: int) -> None:
    """A node of the pool reported other InfiniBand ports (in the report's transaction)."""
    for listener in list(_LISTENERS.values()):
        listener(tenant_ids=None, pool_id=pool_id)


def network_changed(tenant_ids=None, listeners: bool = True) -> None:
    """Tenants whose node-facing intent changed in this transaction (None: every tenant)."""
    tenants = Tenant.objects.all()
    ids = None
    if tenant_ids is not None:
        ids = sorted({int(getattr(t, "pk", t)) for t in tenant_ids if t is not None})
        if not ids:
            return
        tenants = tenants.filter(pk__in=ids)
    tenants.update(network_generation=F("network_generation") + 1)
    for listener in list(_LISTENERS.values()) if listeners else ():
        listener(tenant_ids=ids, pool_id=None)
    transaction.on_commit(lambda: queue_refresh(ids), robust=True)


def queue_refresh(tenant_ids=None) -> None:
    """Queue the compile of these tenants' share of node desired state (None: all)."""
    current_app.send_task(REFRESH_TASK, kwargs={"tenant_ids": tenant_ids})
    leases.take(LEASE, ["all"] if tenant_ids is None else tenant_ids)  # after: a failed publish leaves none


def queue_site_refresh() -> None:
    """Queue the refresh that follows a site object's change (netpolicy.propagation.site_changed)."""
    current_app.send_task(SITE_REFRESH_TASK)
    leases.take(LEASE, ["site"])
