"""Hooks into the core's approval flow: refuse what the vSphere site cannot realize, take VFs."""

from django.dispatch import receiver

from netpolicy import segments
from netpolicy.choices import SegmentKind
from tenants.choices import ClusterState
from tenants.signals import cluster_intent_changed, cluster_pre_approve, cluster_pre_resize
from vsphere import allocation
from vsphere.intent import NoVlanSegment, segment_vlan
from vsphere.models import VCenter


@receiver(cluster_pre_approve)
def reserve_for_approval(sender, cluster, user=None, **kwargs):
    """Refuse overlay clusters, give the tenant its own VLAN segment if needed, take the VFs."""
    vcenter = VCenter.objects.order_by("pk").first()
    if vcenter is None or cluster.state != ClusterState.ENDORSED:
        return
    try:
        segment_vlan(cluster, vcenter)  # raises InvalidRequest for overlay clusters
    except NoVlanSegment:
        # Allocated from the site's VLAN and address pools by the approving admin, audited there.
        segments.create_segment(cluster.tenant, user, {
            "name": f"{vcenter.name}-vlan"[:63], "kind": SegmentKind.VLAN, "vsphere_cluster": vcenter.compute_cluster,
        })  # fmt: skip
    if cluster.uses_sriov:
        allocation.allocate(cluster, vcenter)  # raises Conflict when VFs run out


@receiver(cluster_pre_resize)
def reserve_for_resize(sender, cluster, **kwargs):
    """Take the VFs a bigger or newly SR-IOV cluster needs before the resize is accepted."""
    vcenter = VCenter.objects.order_by("pk").first()
    if vcenter is not None and cluster.uses_sriov:
        allocation.allocate(cluster, vcenter)  # Conflict (409) names how many VFs are short


@receiver(cluster_intent_changed)
def queue_vsphere_reconcile(sender, cluster_id, **kwargs) -> bool:
    """Realize the cluster on vSphere when the site has a vCenter registered."""
    if not VCenter.objects.exists():
        return False
    from vsphere.tasks import reconcile_cluster

    reconcile_cluster.delay(cluster_id)
    return True
