"""Who recompiles when policy or its addresses change: one call, every enforcement point.

`policy_changed()` (a tenant's objects) and `site_changed()` (the site's) are called by netpolicy's
services inside the transaction that changed intent.
The Linux nodes' part is explicit (`tenants.network.network_changed`: the tenants' network
generation moves with the change, the compile is queued on commit, the sweep finds a lost one).
Enforcement points above netpolicy (vSphere port-group filters) register a consumer from their
AppConfig.ready(); it runs after commit. netpolicy never imports them, so the apps stay layered.
"""

from collections.abc import Callable, Iterable

from django.db import connection, transaction
from django.db.models import F

from netpolicy.models import SiteSettings
from tenants.network import network_changed, queue_site_refresh

SITE_GENERATION = "SELECT network_generation FROM netpolicy_sitesettings WHERE id = 1"  # SiteSettings, one row
Consumer = Callable[[frozenset[int] | None], None]  # affected tenant ids, None for every tenant
_CONSUMERS: dict[str, Consumer] = {}


def register(name: str, consumer: Consumer) -> None:
    """Add an enforcement point's consumer (one per name: re-registering replaces it)."""
    _CONSUMERS[name] = consumer


def policy_changed(tenant_ids: Iterable[int] | None = None) -> None:
    """Inside the change's transaction: the nodes' generation moves now, every consumer runs after commit."""
    ids = None if tenant_ids is None else frozenset(tenant_ids)
    network_changed(ids)
    transaction.on_commit(lambda: _notify(ids), robust=True)


def changed(tenant_id: int | None) -> None:
    """A policy object changed: its tenant's (policy_changed), or the site's when it has none (site_changed)."""
    if tenant_id is None:
        site_changed()
    else:
        policy_changed({tenant_id})


def site_changed() -> None:
    """Inside the change's transaction: a site object changed (a service, a site group, a site policy or
    rule, the site settings). Every tenant's traffic meets it, but a tenant's compiled part reads only the
    site policies' order and jumps and the shapes of what its rules name: the site's generation moves
    now, and the nodes' refresh recompiles the parts whose inputs changed (agents.refresh.refresh_site);
    every consumer runs after commit, for every tenant."""
    SiteSettings.ensure()
    SiteSettings.objects.filter(pk=1).update(network_generation=F("network_generation") + 1)
    transaction.on_commit(queue_site_refresh, robust=True)
    transaction.on_commit(lambda: _notify(None), robust=True)


def _notify(ids: frozenset[int] | None) -> None:
    for consumer in list(_CONSUMERS.values()):
        consumer(ids)


def site_generation(lock: bool = False) -> int:
    """The site objects' generation (0 before the first site change); lock=True holds it (FOR SHARE) until
    the transaction ends, so no site change commits while a tenant part is compiled against the site read
    after it (agents.refresh)."""
    sql = SITE_GENERATION + (" FOR SHARE" if lock else "")
    with connection.cursor() as cursor:
        cursor.execute(sql)
        row = cursor.fetchone()
        if row is None and lock:  # a fresh site: make the row there is to hold
            SiteSettings.ensure()
            cursor.execute(sql)
            row = cursor.fetchone()
    return row[0] if row else 0
