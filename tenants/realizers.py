"""How an approved cluster reaches its site: one realizer per site kind, looked up explicitly.

Submit asks `refusals()` whether some site could realize the request as asked; the request form shows
`offers()`. The approval and resize services call `reserve()` inside their transaction (a realizer
takes what the site needs there: a segment, VFs, devices, addresses, or raises a ServiceError to
refuse, naming why), then
`queue()` runs the site's reconciler once the transaction commits. Reconcilers report what they
observe through `tenants.services.set_observed`; pages, the API and e-mails ask `observe()` what
the site shows of a cluster (its VMs and addresses). Site apps register their realizer from their
AppConfig.ready(); this module never imports them, so `tenants` stays free of app cycles.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import dataclass, field

from celery import shared_task
from django.db import transaction

from audit.services import record
from core import leases
from core.errors import InvalidRequest
from tenants.choices import SiteKind
from tenants.models import VirtualCluster

LEASE = "cluster"  # core.leases: a cluster's reconcile is queued or running (the sweep leaves it alone)


@dataclass
class Placement:
    """Where a cluster lives: its site kind (stored on the cluster), site and segment (stored by the site app)."""

    site_kind: str
    site: object = None
    segment: object = None

    @property
    def site_id(self) -> int | None:
        return getattr(self.site, "pk", None)

    @property
    def segment_id(self) -> int | None:
        return getattr(self.segment, "pk", None)


@dataclass
class SiteView:
    """What a site shows of one cluster: its VMs with roles and addresses, and how to reach it."""

    site: str = ""
    # {"name", "role", "host_name", "addresses", "labelled": [(what it is on, address)], "devices"}
    nodes: list[dict] = field(default_factory=list)
    login: dict | None = None  # {"host_name", "address"}; None when the cluster has no login node
    enforcement: list[str] = field(default_factory=list)  # how the tenant's policy is enforced
    unprotected: list[str] = field(default_factory=list)  # traffic no filter sees, and why
    realization: list[dict] = field(default_factory=list)  # {"object", "kind", "state", "message"} in the site's SDN

    def ssh_command(self, username: str) -> str:
        """The command a researcher types to reach the login node (quoted for a POSIX shell)."""
        if not self.login:
            return ""
        return f"ssh -l {shlex.quote(username)} {self.login['address']}"

    def as_dict(self, username: str) -> dict:
        """The API's and e-mail's form, with the SSH command for that user."""
        return {"site": self.site, "login": self.login, "ssh": self.ssh_command(username), "nodes": self.nodes,
                "enforcement": self.enforcement, "unprotected": self.unprotected,
                "realization": self.realization}  # fmt: skip


# Named as it was when it lived in tenants.tasks (a message queued then still finds it; tasks imports this module).
@shared_task(name="tenants.tasks.reconcile_cluster")
def reconcile_cluster(cluster_id: int) -> str:
    """Placeholder reconciler of the base realizer: records that it ran and changes nothing (no site)."""
    cluster = VirtualCluster.objects.filter(pk=cluster_id).first()
    if cluster is None:
        return "gone"
    with transaction.atomic():
        record("cluster.reconcile", cluster, tenant=cluster.tenant_id, message="no reconciler configured")
    return "noop"


class Realizer:
    """One site kind's way of realizing clusters; the base class realizes nothing (no site)."""

    kind = SiteKind.NONE
    site_model = ""  # "app_label.model" of the site rows this realizer places clusters on
    related: tuple[str, ...] = ()  # select_related() paths from a cluster that placement() reads

    def default_site(self, cluster):
        """The site a cluster goes to when the approver names none (None: this kind has no site)."""
        return None

    def find_site(self, site_id: int):
        """A site of this kind by id, for an approver who names one (None if there is none)."""
        return None

    def reserve(self, cluster, user, site) -> Placement:
        """Inside the approval or resize transaction: take what the site needs, or raise to refuse."""
        return Placement(self.kind)

    def store(self, cluster, placement: Placement) -> None:
        """Inside the approval's transaction, after its compare-and-set: keep the site and segment reserved."""

    def placement(self, cluster):
        """Where the cluster is placed: an object with site, site_id, segment and segment_id (None: nowhere)."""
        return Placement(cluster.site_kind or self.kind)

    def queue(self, cluster_id: int) -> None:
        """Start (or restart) the site's reconciler for the cluster; called after commit."""
        reconcile_cluster.delay(cluster_id)

    def observe(self, cluster) -> SiteView:
        """What the site shows of the cluster (read from the database; never calls the site)."""
        return SiteView()

    def offers(self) -> list:
        """What each site of this kind offers (tenants.offers.SiteOffers; the database only)."""
        return []

    def refusals(self, cluster, site=None) -> list[str] | None:
        """Why `site` (or, without one, every site of this kind) cannot realize the request as asked.

        Empty when it can (capacity taken by others aside); None when this kind has no site at all.
        """
        return None


_REGISTRY: dict[str, Realizer] = {SiteKind.NONE: Realizer()}


def register(realizer: Realizer) -> None:
    """Make a site kind's realizer known (from the site app's AppConfig.ready)."""
    _REGISTRY[realizer.kind] = realizer


def sited() -> list[Realizer]:
    """Every realizer that places clusters on sites (all but the base one)."""
    return [r for kind, r in _REGISTRY.items() if kind != SiteKind.NONE]


def get(kind: str) -> Realizer:
    """The realizer of a site kind; clusters not placed yet have none but the base one."""
    return _REGISTRY.get(kind or SiteKind.NONE, _REGISTRY[SiteKind.NONE])


def for_cluster(cluster) -> Realizer:
    """The realizer that realizes (or will realize) this cluster."""
    return get(cluster.site_kind)


def placement_of(cluster):
    """Where the cluster is placed (its site and segment), as its realizer stored it."""
    return for_cluster(cluster).placement(cluster)


def placement_related() -> list[str]:
    """select_related() paths that let placement_of() read a listed cluster without a query of its own."""
    return sorted({path for realizer in _REGISTRY.values() for path in realizer.related})


def find_site(kind: str, site_id: int):
    """The site an approver named, or a 400 naming the field."""
    site = get(kind).find_site(site_id) if kind in _REGISTRY else None
    if site is None:
        raise InvalidRequest(f"No {kind} site with id {site_id}.", "site")
    return site


def place(cluster, site=None) -> tuple[Realizer, object]:
    """At approval: the realizer and site for a cluster (the named site, else the only one there is)."""
    if cluster.site_kind:
        return get(cluster.site_kind), placement_of(cluster).site
    if site is not None:
        label = site._meta.label_lower
        for realizer in sited():
            if realizer.site_model == label:
                return realizer, site
        raise InvalidRequest(f"No realizer places clusters on a {site._meta.verbose_name}.", "site")
    for realizer in sited():
        found = realizer.default_site(cluster)
        if found is not None:
            return realizer, found
    return get(SiteKind.NONE), None


def queue(cluster) -> None:
    """The one way work for a cluster is queued: its realizer's reconciler, after the commit."""
    cluster_id = cluster.pk
    transaction.on_commit(lambda: realize(cluster_id), robust=True)


def realize(cluster_id: int) -> bool:
    """Queue the cluster's reconciler now (for callers outside a transaction, e.g. a periodic sweep)."""
    kind = VirtualCluster.objects.filter(pk=cluster_id).values_list("site_kind", flat=True).first()
    if kind is None:
        return False
    get(kind).queue(cluster_id)
    leases.take(LEASE, [cluster_id])  # after the publish: a failed one leaves no lease, so the sweep retries
    return True


# Site apps above this one (fabrics) follow what a cluster holds on its site: called inside the approval's and
# resize's transaction after `reserve()`, and by a reconciler after it released what the cluster no longer uses.
_HELD_LISTENERS: dict[str, Callable] = {}


def on_held_changed(name: str, listener: Callable) -> None:
    """Register listener(cluster), run inside the transaction that changed what the cluster holds."""
    _HELD_LISTENERS[name] = listener


def held_changed(cluster) -> None:
    """What the cluster holds on its site (VFs) changed in this transaction."""
    for listener in list(_HELD_LISTENERS.values()):
        listener(cluster)
