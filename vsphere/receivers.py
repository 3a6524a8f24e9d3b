"""Hooks into the core's approval flow: refuse what the vSphere site cannot realize, take VFs."""

from django.dispatch import receiver

from tenants.choices import ClusterState
from tenants.signals import cluster_intent_changed, cluster_pre_approve
from vsphere import allocation
from vsphere.intent import segment_vlan
from vsphere.models import VCenter


@receiver(cluster_pre_approve)
def reserve_for_approval(sender, cluster, **kwargs):
    """Refuse overlay clusters on a vSphere site and take the SR-IOV VFs before approval."""
    vcenter = VCenter.objects.order_by("pk").first()
    if vcenter is None or cluster.state != ClusterState.ENDORSED:
        return
    segment_vlan(cluster, vcenter)  # raises InvalidRequest for overlay or a missing VLAN
    if cluster.uses_sriov:
        allocation.allocate(cluster, vcenter)  # raises Conflict when VFs run out


@receiver(cluster_intent_changed)
def queue_vsphere_reconcile(sender, cluster_id, **kwargs) -> bool:
    """Realize the cluster on vSphere when the site has a vCenter registered."""
    if not VCenter.objects.exists():
        return False
    from vsphere.tasks import reconcile_cluster

    reconcile_cluster.delay(cluster_id)
    return True
