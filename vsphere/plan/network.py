"""Where a cluster's VMs attach: the tenant's segment on the site, its port group, guest settings, filter rules."""

import ipaddress
from dataclasses import dataclass

from core.errors import InvalidRequest
from netpolicy import ipam
from netpolicy.choices import SegmentKind, SegmentState
from netpolicy.compiler import vds
from netpolicy.compiler.model import PolicyError
from netpolicy.compiler.vds import VdsRule
from netpolicy.ir import build_site, tenant_name
from netpolicy.models import Segment
from netpolicy.segments import peek_next_id
from nsx.realize import segment_name as nsx_segment_name
from tenants.choices import ClusterState, NetworkMode
from tenants.models import VirtualCluster
from vsphere.models import VCenter, placement_of
from vsphere.naming import guest_domain, portgroup_marker, portgroup_name
from vsphere.plan.capabilities import OVERLAY_REASON
from vsphere.plan.specs import GuestNetwork

DECOMMISSION_STATES = {ClusterState.DECOMMISSIONING, ClusterState.RETIRED}
# Before approval VFs are not taken yet: the plan preview places nodes tentatively.
PREVIEW_STATES = {ClusterState.DRAFT, ClusterState.SUBMITTED, ClusterState.ENDORSED}
RELEASED_SEGMENTS = [SegmentState.RETIRED, SegmentState.REJECTED]


def is_overlay(cluster: VirtualCluster) -> bool:
    return cluster.network_mode == NetworkMode.OVERLAY


def tenant_segment(cluster: VirtualCluster, vcenter: VCenter) -> Segment | None:
    """The tenant's segment on this vCenter's compute cluster: its own VLAN, or its NSX overlay segment."""
    if is_overlay(cluster):
        found = Segment.objects.filter(
            kind=SegmentKind.OVERLAY, pool_link=None, vsphere_cluster=vcenter.compute_cluster
        )
    else:
        found = Segment.objects.filter(kind=SegmentKind.VLAN, vlan_id__isnull=False).filter(
            vsphere_cluster__in=["", vcenter.compute_cluster]
        )
    found = found.filter(tenant=cluster.tenant_id).exclude(state__in=RELEASED_SEGMENTS)
    return found.order_by("-vsphere_cluster", "id").first()


def refuse_overlay(cluster: VirtualCluster, vcenter: VCenter) -> None:
    """Overlay segments on vSphere need the site's NSX Manager."""
    if is_overlay(cluster) and vcenter.nsx is None:
        raise InvalidRequest(OVERLAY_REASON)


class NoVlanSegment(InvalidRequest):
    """The tenant has no VLAN segment on this vSphere site yet."""


@dataclass(frozen=True)
class Network:
    """The port group a cluster's VMs attach to: Enclave's per-VLAN one, or the one NSX made for a segment."""

    portgroup: str
    marker: str
    vlan: int = 0
    external: bool = False  # NSX's: never created, changed, filtered or removed by Enclave


def segment_vlan(cluster: VirtualCluster, vcenter: VCenter) -> int:
    """VLAN of the cluster's segment (placed at approval), or of the tenant's segment on this site."""
    segment = placement_of(cluster).segment or tenant_segment(cluster, vcenter)
    if segment is None:
        raise NoVlanSegment(f"Tenant {cluster.tenant.slug} has no VLAN segment on vSphere cluster "
                            f"{vcenter.compute_cluster}.")  # fmt: skip
    return segment.vlan_id


def network(cluster: VirtualCluster, vcenter: VCenter) -> Network:
    """Where the cluster's VMs attach; raises NoVlanSegment before approval placed a segment."""
    refuse_overlay(cluster, vcenter)
    if is_overlay(cluster):
        segment = placement_of(cluster).segment or tenant_segment(cluster, vcenter)
        if segment is None:
            return Network("", "", external=True)  # before approval, or its segment is gone: nothing to attach to
        return Network(nsx_segment_name(segment), "", external=True)
    try:
        vlan = segment_vlan(cluster, vcenter)
    except NoVlanSegment:
        if cluster.state in PREVIEW_STATES:  # approval will allocate the tenant's segment
            vlan = peek_next_id(cluster.tenant, SegmentKind.VLAN)
            if vlan is None:
                raise
        elif cluster.state in DECOMMISSION_STATES:
            vlan = 0  # the segment is gone: only VMs are removed, no port group matches VLAN 0
        else:
            raise
    return Network(portgroup_name(cluster, vlan), portgroup_marker(cluster, vlan), vlan)


def filter_rules(cluster: VirtualCluster) -> tuple[VdsRule, ...]:
    """The tenant's policy (site policies included) compiled for its port group's traffic filter."""
    try:
        return vds.compile_tenant(build_site([cluster.tenant]), tenant_name(cluster.tenant_id))
    except PolicyError as exc:
        raise InvalidRequest(f"The tenant's policy cannot be enforced on vSphere: {exc}") from None


def guest_network(cluster: VirtualCluster, vcenter: VCenter) -> GuestNetwork:
    """Prefix, gateway, resolvers and domain of the cluster's segment for guest customization."""
    settings = ipam.site_settings()
    segment = placement_of(cluster).segment or tenant_segment(cluster, vcenter)
    prefix, gateway = (ipaddress.ip_network(segment.subnet).prefixlen, segment.gateway) if segment else (0, "")
    return GuestNetwork(prefix, gateway, tuple(settings.dns_servers), guest_domain(cluster, settings))
