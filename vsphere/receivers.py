"""Hooks into the core's approval flow: refuse what the vSphere site cannot realize, take VFs."""

from django.dispatch import receiver

from netpolicy import segments
from netpolicy.choices import SegmentKind
from portal.errors import NotOffered
from tenants.choices import ClusterState
from tenants.signals import cluster_intent_changed, cluster_pre_approve, cluster_pre_resize
from vsphere import allocation, capabilities, devices
from vsphere.intent import NoVlanSegment, segment_vlan
from vsphere.models import VCenter


def reserve(cluster, vcenter: VCenter) -> None:
    """Take what the cluster's shape needs: hosts with the devices and features first, then VFs (idempotent)."""
    reasons = capabilities.refusals(cluster, vcenter)
    if reasons:
        raise NotOffered(reasons)  # the site changed since submit: say why, take nothing
    if devices.needs_placement(cluster):
        devices.place(cluster, vcenter, take=True)  # Conflict (409) names the node and what is short
    if cluster.uses_sriov:
        allocation.allocate(cluster, vcenter)  # VFs of nodes without other needs; the others hold theirs


@receiver(cluster_pre_approve)
def reserve_for_approval(sender, cluster, user=None, **kwargs):
    """Refuse what the site cannot realize, give the tenant its own VLAN segment if needed, take devices and VFs."""
    vcenter = VCenter.objects.order_by("pk").first()
    if vcenter is None or cluster.state != ClusterState.ENDORSED:
        return
    reasons = capabilities.refusals(cluster, vcenter)
    if reasons:
        raise NotOffered(reasons)
    try:
        segment_vlan(cluster, vcenter)  # raises InvalidRequest for overlay clusters
    except NoVlanSegment:
        # Allocated from the site's VLAN and address pools by the approving admin, audited there.
        segments.create_segment(cluster.tenant, user, {
            "name": f"{vcenter.name}-vlan"[:63], "kind": SegmentKind.VLAN, "vsphere_cluster": vcenter.compute_cluster,
        })  # fmt: skip
    reserve(cluster, vcenter)  # raises Conflict when devices or VFs run out


@receiver(cluster_pre_resize)
def reserve_for_resize(sender, cluster, **kwargs):
    """Take the devices and VFs a bigger or re-attached cluster needs before the resize is accepted."""
    vcenter = VCenter.objects.order_by("pk").first()
    if vcenter is not None:
        reserve(cluster, vcenter)  # Conflict (409) names what is short


@receiver(cluster_intent_changed)
def queue_vsphere_reconcile(sender, cluster_id, **kwargs) -> bool:
    """Realize the cluster on vSphere when the site has a vCenter registered."""
    if not VCenter.objects.exists():
        return False
    from vsphere.tasks import reconcile_cluster

    reconcile_cluster.delay(cluster_id)
    return True
