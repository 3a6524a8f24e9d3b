"""A cluster's VM names are its own on the site: a clash is refused at submit and cannot be approved twice.

VM names are the tenant's slug, the cluster's name and a role suffix without a hyphen (naming.vm_base), so
tenant `chem` with cluster `lab-md` and tenant `chem-lab` with cluster `md` would get the same VMs, and the
later cluster's reconcile would stop at VMs carrying the other's marker. Realized clusters keep their names,
so the later request is refused instead: at submit against every live request and cluster, and at approval
by the unique VM base of vsphere.Placement, which no two approvals can both commit.
"""

import functools
import operator

from django.db import IntegrityError, transaction
from django.db.models import Q

from core.errors import Conflict
from tenants.choices import ClusterState
from tenants.models import VirtualCluster
from vsphere.models import Placement
from vsphere.naming import vm_base

S = ClusterState
RELEASED = (S.REJECTED, S.RETIRED)  # their VMs are gone (or never were): their names are free again
CONSTRAINT = "placement_vm_base_unique"
# Read by the requester: it names no other tenant or cluster, only the base they chose themselves.
TAKEN = (
    "The VM names this cluster would get ({base}-…) are taken on this site by another cluster's VMs; "
    "choose another cluster name."
)
# Read by the approving site admin only (approval is refused to anyone else before it gets here).
HELD = (
    "Cannot approve: the VM names {base}-… are held on this site by {holder}. Reject this request so "
    "that its requester can ask again under another cluster name."
)


def owners(base: str) -> Q:
    """Every (tenant slug, cluster name) whose VMs start with `base`: one per hyphen that could split it."""
    splits = [Q(tenant__slug=base[:i], name=base[i + 1 :]) for i, char in enumerate(base) if char == "-"]
    return functools.reduce(operator.or_, splits, Q(pk__in=[]))


def refusal(cluster: VirtualCluster) -> str | None:
    """At submit and in the request form: why the request's VM names cannot be had here (None: they can)."""
    if cluster.tenant_id is None or cluster.state != S.DRAFT:
        return None  # a preview of no tenant yet (catalog), or a cluster that already has its names
    base = vm_base(cluster)
    others = VirtualCluster.objects.filter(owners(base)).exclude(state__in=(S.DRAFT, *RELEASED))
    if others.exclude(pk=cluster.pk).exists():  # another tenant's draft holds nothing yet: first to submit wins
        return TAKEN.format(base=base)
    return None


def claim(cluster: VirtualCluster, site, segment) -> Placement:
    """In the approval's transaction: the cluster's placement with its VM base (Conflict when another holds it)."""
    base = vm_base(cluster)
    # A released cluster's placement stays (its history); its base is freed here, whichever path released it.
    Placement.objects.filter(vm_base=base, cluster__state__in=RELEASED).update(vm_base=None)
    holder = _holder(cluster, base)
    if holder is None:
        try:
            with transaction.atomic():  # a savepoint: the refusal below leaves the approval's transaction usable
                placed, _ = Placement.objects.update_or_create(
                    cluster_id=cluster.pk, defaults={"site": site, "segment": segment, "vm_base": base}
                )
            return placed
        except IntegrityError as exc:
            if CONSTRAINT not in str(exc):
                raise
            # A concurrent approval committed the same base after our look: the constraint refused this one.
            holder = _holder(cluster, base) or "a cluster approved meanwhile"
    raise Conflict(HELD.format(base=base, holder=holder))


def _holder(cluster: VirtualCluster, base: str) -> str | None:
    """The other cluster whose placement holds `base` ("cluster tenant/name"), or None."""
    found = Placement.objects.filter(vm_base=base).exclude(cluster_id=cluster.pk).select_related("cluster__tenant")
    other = found.first()
    return f"cluster {other.cluster}" if other is not None else None
