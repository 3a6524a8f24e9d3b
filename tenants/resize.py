"""What a resize changes, in words: its plan before confirmation, what is being applied, what was applied.

Everything here reads intent from the database (the cluster, the tenant's quota and other clusters,
the audit log); nothing asks a site. The resize itself is tenants.services.resize_cluster.
"""

import copy
from dataclasses import dataclass, field

from audit.models import AuditEvent
from tenants import offers, quotas
from tenants.choices import COMMITTED_STATES, Interconnect

RESIZABLE = ("worker_count", "interconnect")
LABELS = {"worker_count": "workers", "interconnect": "interconnect"}
SIZES = (("VMs", "vm_count"), ("vCPUs", "total_vcpus"), ("memory (GB)", "total_memory_gb"),
         ("SR-IOV VFs", "vf_count"), ("GPUs", "gpu_count"))  # fmt: skip


def _shown(field_name: str, value) -> str:
    if field_name == "interconnect":
        return Interconnect(value).label if value in Interconnect.values else str(value)
    return str(value)


def describe(before: dict | None, after: dict | None) -> list[str]:
    """The resized fields of two snapshots, as "workers 2 → 4" (empty when none changed)."""
    before, after = before or {}, after or {}
    return [f"{LABELS[f]} {_shown(f, before[f])} → {_shown(f, after[f])}"
            for f in RESIZABLE if f in before and f in after and before[f] != after[f]]  # fmt: skip


@dataclass
class Plan:
    """A resize as the confirmation page shows it: the changes, the sizes, the quota effect, refusals."""

    changes: list[str]
    sizes: list[dict]  # {"label", "before", "after"} for each size that changes
    quota: list[dict]  # per dimension it touches: label, limit, others, before, after, left, over, fits
    problems: list[str] = field(default_factory=list)  # what would refuse it at submit (quota, site)

    @property
    def ok(self) -> bool:
        return bool(self.changes) and not self.problems


def plan(cluster, changes: dict) -> Plan:
    """The plan of resizing `cluster` to `changes` (worker_count, interconnect), from intent only."""
    proposed = copy.copy(cluster)
    for name in RESIZABLE:
        if changes.get(name) is not None:
            setattr(proposed, name, changes[name])
    sizes = [{"label": label, "before": getattr(cluster, attr), "after": getattr(proposed, attr)}
             for label, attr in SIZES if getattr(cluster, attr) != getattr(proposed, attr)]  # fmt: skip
    limits = quotas.quota_of(cluster.tenant_id)
    others = quotas.usage(cluster.tenant_id, COMMITTED_STATES, exclude_pk=cluster.pk)
    rows = []
    for label, limit_attr, attr in quotas.DIMENSIONS:
        before, after = quotas._amount(cluster, attr), quotas._amount(proposed, attr)
        if before == after:
            continue
        limit = getattr(limits, limit_attr)
        rows.append({"label": label, "limit": limit, "others": others[attr], "before": before, "after": after,
                     "left": limit - others[attr] - after, "over": max(others[attr] + after - limit, 0),
                     "fits": others[attr] + after <= limit})  # fmt: skip
    described = describe({n: getattr(cluster, n) for n in RESIZABLE}, {n: getattr(proposed, n) for n in RESIZABLE})
    problems = quotas.shortfalls(proposed, limits, include_pending=False) if described else []
    if described and proposed.interconnect != cluster.interconnect:
        problems += offers.refusals(proposed)
    return Plan(described, sizes, rows, problems)


def pending(cluster) -> list[str]:
    """What the site is applying: the resizes newer than the generation it observed (one query)."""
    return applied(cluster, cluster.observed_generation, cluster.generation)


def applied(cluster, since: int, until: int) -> list[str]:
    """The net change of the resizes of generations after `since` up to `until`, as "workers 2 → 4"."""
    if until <= since:
        return []
    events = list(AuditEvent.objects.filter(
        object_type="tenants.virtualcluster", object_id=str(cluster.pk), action="cluster.resize",
        after__generation__gt=since, after__generation__lte=until,
    ).order_by("id").values_list("before", "after"))  # fmt: skip
    return describe(events[0][0], events[-1][1]) if events else []
