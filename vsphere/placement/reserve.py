"""What approval reserves for a cluster on a vCenter: the tenant's segment, hosts and devices, VFs, addresses."""

from agents.models import Node
from core.errors import InvalidRequest, NotOffered
from netpolicy import ipam, segments
from netpolicy.choices import SegmentKind
from netpolicy.models import NicRole, Segment
from tenants.choices import Interconnect
from tenants.models import Tenant, VirtualCluster
from vsphere.choices import NodeRole as VMRole
from vsphere.models import VCenter, placement_of
from vsphere.naming import GROUP_ROLE, node_names
from vsphere.placement import hosts, vfs
from vsphere.plan import capabilities
from vsphere.plan.network import filter_rules, is_overlay, refuse_overlay, tenant_segment


def default_vcenter(cluster: VirtualCluster) -> VCenter | None:
    """The only registered vCenter; with several the approving admin must name one."""
    vcenters = list(VCenter.objects.order_by("name")[:2])
    if len(vcenters) > 1:
        raise InvalidRequest("Several vCenters are registered: name the one this cluster goes to.", "site")
    return vcenters[0] if vcenters else None


def reserve(cluster: VirtualCluster, user, vcenter: VCenter) -> Segment:
    """The tenant's segment, the devices, VFs and addresses the cluster's shape needs (Conflict when short).

    Refused too when the tenant's policy holds a rule the port group's traffic filter cannot enforce.
    """
    if not is_overlay(cluster):  # NSX's distributed firewall enforces what a port group's filter cannot
        filter_rules(cluster)  # raises InvalidRequest naming the rule
    refuse_unrealizable(cluster, vcenter)  # NotOffered: an attachment, data path or GPU this vCenter lacks
    segment = placement_of(cluster).segment or ensure_segment(cluster, vcenter, user)
    take_devices(cluster, vcenter)
    ipam.reserve(cluster, segment, wanted_addresses(cluster), exclude=underlay_addresses())
    return segment


def ensure_segment(cluster: VirtualCluster, vcenter: VCenter, user) -> Segment:
    """The tenant's segment on this site (VLAN, or NSX overlay), allocated from the site's pools on first approval."""
    refuse_overlay(cluster, vcenter)
    Tenant.objects.select_for_update().get(pk=cluster.tenant_id)  # one segment per tenant under concurrency
    segment = tenant_segment(cluster, vcenter)
    if segment is None:  # allocated by the approving admin from the ID and address pools, audited there
        kind = SegmentKind.OVERLAY if is_overlay(cluster) else SegmentKind.VLAN
        segment = segments.create_segment(cluster.tenant, user, {
            "name": f"{vcenter.name}-{kind}"[:63], "kind": kind, "vsphere_cluster": vcenter.compute_cluster,
        })  # fmt: skip
    return segment


def wanted_addresses(cluster: VirtualCluster) -> list[ipam.Wanted]:
    """Every NIC on the tenant's segment: each VM's primary adapter, and the VF or PVRDMA adapter of fabric nodes."""
    sriov = set(vfs.sriov_node_names(cluster))
    wanted = []
    for role, name in node_names(cluster):
        group_role = GROUP_ROLE[role]
        wanted.append((name, group_role, NicRole.PRIMARY))
        if name in sriov:
            wanted.append((name, group_role, NicRole.SRIOV))
        elif cluster.interconnect == Interconnect.PVRDMA and role != VMRole.LOGIN:
            wanted.append((name, group_role, NicRole.PVRDMA))
    return wanted


def underlay_addresses() -> set[str]:
    """Linux nodes' underlay addresses: a VM on a segment overlapping the underlay never gets one."""
    return {str(a) for a in Node.objects.exclude(address=None).values_list("address", flat=True)}


def refuse_unrealizable(cluster: VirtualCluster, vcenter: VCenter) -> None:
    """Refuse, naming why, what this vCenter cannot realize (the site may have changed since submit)."""
    reasons = capabilities.refusals(cluster, vcenter)
    if reasons:
        raise NotOffered(reasons)


def take_devices(cluster: VirtualCluster, vcenter: VCenter) -> None:
    """Hosts with the devices and features each node needs, then VFs for the rest (idempotent; 409 when short)."""
    if hosts.needs_placement(cluster):
        hosts.place(cluster, vcenter, take=True)  # Conflict names the node and what is short
    if cluster.uses_sriov:
        vfs.allocate(cluster, vcenter)  # VFs of nodes without other needs; the others hold theirs


def reserve_again(cluster: VirtualCluster, vcenter: VCenter) -> None:
    """What approval reserved, taken again by the reconciler (idempotent: normally nothing new)."""
    take_devices(cluster, vcenter)
    segment = placement_of(cluster).segment or tenant_segment(cluster, vcenter)
    if segment is not None:
        ipam.reserve(cluster, segment, wanted_addresses(cluster), exclude=underlay_addresses())
