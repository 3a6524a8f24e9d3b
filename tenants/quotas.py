"""Quota accounting: what a tenant holds, and whether a cluster still fits."""

from django.db.models import Q

from audit.services import record, snapshot
from core.errors import QuotaExceeded
from tenants.choices import COMMITTED_STATES, PENDING_STATES
from tenants.models import Quota, VirtualCluster

DIMENSIONS = (
    ("nodes", "max_nodes", "vm_count"),
    ("vCPUs", "max_vcpus", "total_vcpus"),
    ("memory (GB)", "max_memory_gb", "total_memory_gb"),
    ("SR-IOV VFs", "max_vfs", "vf_count"),
    ("segments", "max_segments", "segment_count"),
    ("GPUs", "max_gpus", "gpu_count"),
)


def _segment_count(cluster: VirtualCluster) -> int:
    """Each cluster lives on one segment of its own."""
    return 1


def usage(tenant, states, exclude_pk=None) -> dict[str, int]:
    """Sum the resources of the tenant's clusters in `states` (optionally leaving one out)."""
    clusters = VirtualCluster.objects.filter(tenant=tenant, state__in=states).filter(~Q(pk=exclude_pk))
    totals = {attr: 0 for _, _, attr in DIMENSIONS}
    for cluster in clusters:
        for _, _, attr in DIMENSIONS:
            totals[attr] += _amount(cluster, attr)
    return totals


def _amount(cluster: VirtualCluster, attr: str) -> int:
    return _segment_count(cluster) if attr == "segment_count" else getattr(cluster, attr)


ZERO_LIMITS = {"max_nodes": 0, "max_vcpus": 0, "max_memory_gb": 0, "max_vfs": 0, "max_segments": 0, "max_gpus": 0}


def quota_of(tenant_id: int) -> Quota:
    """The tenant's quota for reading; a missing row reads as zero limits (fail closed), never an error."""
    return Quota.objects.filter(tenant_id=tenant_id).first() or Quota(tenant_id=tenant_id, **ZERO_LIMITS)


def locked_quota(tenant_id: int) -> Quota:
    """Lock the tenant's quota row; a missing one is recreated with zero limits (audited) for an admin to set."""
    quota = Quota.objects.select_for_update().filter(tenant_id=tenant_id).first()
    if quota is None:
        quota, created = Quota.objects.get_or_create(tenant_id=tenant_id, defaults=ZERO_LIMITS)
        if created:
            note = "recreated with zero limits: the quota row was missing; a site admin must set it"
            record("quota.create", quota, after=snapshot(quota), tenant=tenant_id, message=note)
        quota = Quota.objects.select_for_update().get(pk=quota.pk)
    return quota


def check_fits(cluster: VirtualCluster, *, include_pending: bool) -> None:
    """Raise QuotaExceeded naming every quota the cluster would break, with asked and left."""
    quota = locked_quota(cluster.tenant_id)
    problems = shortfalls(cluster, quota, include_pending)
    if problems:
        raise QuotaExceeded(problems)


def shortfalls(cluster: VirtualCluster, quota: Quota, include_pending: bool = True) -> list[str]:
    """Describe each quota the cluster would exceed ("vCPUs: asked 64, 32 left of 128")."""
    states = COMMITTED_STATES | (PENDING_STATES if include_pending else set())
    held = usage(cluster.tenant_id, states, exclude_pk=cluster.pk)
    problems = []
    for label, limit_attr, attr in DIMENSIONS:
        limit, asked = getattr(quota, limit_attr), _amount(cluster, attr)
        left = max(limit - held[attr], 0)
        if asked > left:
            problems.append(f"{label}: asked {asked}, {left} left of {limit}")
    return problems


def panel(cluster: VirtualCluster | None, quota: Quota) -> list[dict]:
    """Each quota's limit, what the tenant holds (pending requests included), what this request adds, what is left."""
    held = usage(quota.tenant_id, COMMITTED_STATES | PENDING_STATES, exclude_pk=getattr(cluster, "pk", None))
    rows = []
    for label, limit_attr, attr in DIMENSIONS:
        limit, adds = getattr(quota, limit_attr), _amount(cluster, attr) if cluster else 0
        rows.append(
            {
                "label": label,
                "limit": limit,
                "used": held[attr],
                "adds": adds,
                "left": limit - held[attr] - adds,
                "over": held[attr] + adds > limit,
            }
        )
    return rows
