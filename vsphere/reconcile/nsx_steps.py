"""A cluster's steps in NSX around its vCenter converge: realize the tenant's part, tag VMs, release the segment."""

from django.db import transaction

from audit.services import record, snapshot
from netpolicy import propagation
from netpolicy.choices import SegmentState
from netpolicy.models import Segment
from nsx import realize
from nsx.client import NsxError
from tenants.choices import ClusterState
from tenants.models import VirtualCluster
from vsphere.choices import StepStatus
from vsphere.errors import PermanentError, TransientError
from vsphere.models import placement_of
from vsphere.naming import GROUP_ROLE, node_names
from vsphere.plan.network import is_overlay

DONE_STATES = [ClusterState.RETIRED, ClusterState.REJECTED, ClusterState.DECOMMISSIONING]
RELEASED = [SegmentState.RETIRED, SegmentState.REJECTED]


def manager_for(cluster: VirtualCluster, vcenter):
    """The NSX Manager that realizes this cluster's network (None: not an overlay cluster on an NSX site)."""
    return vcenter.nsx if is_overlay(cluster) else None


def _mapped(exc: Exception) -> Exception:
    """NSX's failures as the vSphere reconciler's; an unreadable CA bundle (OSError) is permanent."""
    if isinstance(exc, NsxError) and exc.transient:
        return TransientError(str(exc), fault="NSX")
    return PermanentError(str(exc), fault="NSX")


def realize_network(manager, cluster: VirtualCluster, steps) -> None:
    """The tenant's tier-1, segment, groups and policies realized in NSX, before VMs attach to the segment."""
    try:
        outcome = realize.realize_tenant(manager, cluster.tenant)
    except (NsxError, OSError) as exc:
        raise _mapped(exc) from None
    steps("nsx", f"NSX: {'applied' if outcome.patched else 'unchanged'}", StepStatus.DONE)
    if outcome.errors:  # often passing (a host switch not ready): sent again on retry, an error after the last
        raise TransientError("NSX could not realize: " + "; ".join(outcome.errors[:3]), fault="NSX")
    if outcome.pending:
        raise TransientError(f"NSX is still realizing {', '.join(outcome.pending[:3])}", fault="NSX")


def tag_vms(manager, cluster: VirtualCluster) -> int:
    """Tag every VM with its tenant, cluster and role, so the tenant's NSX groups match it."""
    roles = {name: str(GROUP_ROLE[role]) for role, name in node_names(cluster)}
    try:
        return realize.tag_vms(manager, cluster.tenant, cluster.pk, roles)
    except (NsxError, OSError) as exc:
        raise _mapped(exc) from None


def release_network(manager, cluster: VirtualCluster) -> None:
    """After its VMs are gone: retire the segment no other cluster uses, then remove what NSX no longer needs."""
    segment_id = placement_of(cluster).segment_id
    if segment_id:
        with transaction.atomic():
            segment = Segment.objects.select_for_update().get(pk=segment_id)
            users = VirtualCluster.objects.filter(placement__segment=segment).exclude(pk=cluster.pk)
            users = users.exclude(state__in=DONE_STATES)
            if segment.state not in RELEASED and not users.exists():
                before = snapshot(segment)
                segment.state, segment.generation = SegmentState.RETIRED, segment.generation + 1
                segment.save(update_fields=["state", "generation", "updated"])
                record("segment.retire", segment, before=before, after=snapshot(segment), tenant=segment.tenant_id,
                       message="its last cluster on the NSX site was decommissioned")  # fmt: skip
                propagation.policy_changed({segment.tenant_id})  # groups naming the segment lose its subnet
    try:
        outcome = realize.realize_tenant(manager, cluster.tenant)
    except (NsxError, OSError) as exc:
        raise _mapped(exc) from None
    if outcome.errors:
        raise PermanentError("NSX could not remove: " + "; ".join(outcome.errors[:3]), fault="NSX")
