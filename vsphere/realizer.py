"""The vSphere realizer: where approval meets vCenter (registered in VsphereConfig.ready)."""

from django.db.models import Q

from agents.models import Node
from core.errors import InvalidRequest, NotOffered
from netpolicy import ipam, segments
from netpolicy.choices import NodeRole as GroupRole
from netpolicy.choices import SegmentKind, SegmentState
from netpolicy.models import NicRole, Segment
from tenants.choices import Interconnect, NetworkMode, SiteKind
from tenants.models import Tenant, VirtualCluster
from tenants.realizers import Placement, Realizer, SiteView
from vsphere import allocation, capabilities, devices
from vsphere.capacity import node_needs, sites_capacity
from vsphere.choices import NodeRole as VMRole
from vsphere.models import VCenter

RELEASED_SEGMENTS = [SegmentState.RETIRED, SegmentState.REJECTED]
PVRDMA_UNFILTERED = (
    "PVRDMA's RDMA traffic between hosts is carried by the hosts' RDMA NICs, not through the virtual switch's "
    "traffic filter: its isolation rests on the tenant's own VLAN (the port group's)."
)
DIRECTPATH_UNFILTERED = (
    "The whole RoCE NIC each node holds (DirectPath I/O) bypasses the virtual switch: the tenant's firewall does "
    "not filter it and Enclave does not configure it (no port group); its VLAN is the one the site sets on the "
    "physical switch port."
)
SRIOV_UNFILTERED = {
    Interconnect.SRIOV_IB: "SR-IOV VF traffic (InfiniBand) bypasses the virtual switch, so the tenant's firewall does "
    "not filter it, and the cluster's hosts are on no InfiniBand fabric Enclave manages: the VFs sit in the fabric's "
    "default partition with every other tenant's, so native InfiniBand (verbs, MPI) between tenants is NOT isolated.",
    Interconnect.SRIOV_ROCE: "SR-IOV VF traffic (RoCE) bypasses the virtual switch, so the tenant's firewall does not "
    "filter it: its isolation rests on the tenant's own VLAN, tagged by the NIC for every VF.",
}
NIC_ORDER = (NicRole.PRIMARY, NicRole.SRIOV, NicRole.PVRDMA)  # how a node's addresses are listed
# A VM's role as the tenant's role groups (login, manager, worker) name it.
GROUP_ROLE = {VMRole.LOGIN: GroupRole.LOGIN, VMRole.MANAGER: GroupRole.MANAGER, VMRole.WORKER: GroupRole.WORKER}


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
    if is_overlay(cluster) and vcenter.nsx_manager() is None:
        raise InvalidRequest(capabilities.OVERLAY_REASON)


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
    from vsphere.intent import node_names

    sriov = set(allocation.sriov_node_names(cluster))
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


# What isolates a cluster's InfiniBand VFs, in a sentence (None: nothing does); the fabrics app sets it from its
# AppConfig.ready(), so this app never imports it.
IB_ISOLATION: dict = {"note": lambda cluster: None}


def unprotected_paths(cluster: VirtualCluster) -> list[str]:
    """Traffic of this cluster that no switch filter sees, and what isolates it instead."""
    notes = []
    if cluster.uses_sriov:
        ib_note = IB_ISOLATION["note"](cluster) if cluster.interconnect == Interconnect.SRIOV_IB else None
        notes.append(ib_note or SRIOV_UNFILTERED[cluster.interconnect])
    elif cluster.interconnect == Interconnect.PVRDMA:
        notes.append(PVRDMA_UNFILTERED)
    elif cluster.interconnect == Interconnect.DIRECTPATH:
        notes.append(DIRECTPATH_UNFILTERED)
    if cluster.site_id and cluster.site.management_network:
        notes.append(f"Every VM also has a NIC on the site's management network {cluster.site.management_network}, "
                     f"outside the tenant's filter: {cluster.site.management_isolation}")  # fmt: skip
    return notes


def refuse_unrealizable(cluster: VirtualCluster, vcenter: VCenter) -> None:
    """Refuse, naming why, what this vCenter cannot realize (the site may have changed since submit)."""
    reasons = capabilities.refusals(cluster, vcenter)
    if reasons:
        raise NotOffered(reasons)


def take_devices(cluster: VirtualCluster, vcenter: VCenter) -> None:
    """Hosts with the devices and features each node needs, then VFs for the rest (idempotent; 409 when short)."""
    if devices.needs_placement(cluster):
        devices.place(cluster, vcenter, take=True)  # Conflict names the node and what is short
    if cluster.uses_sriov:
        allocation.allocate(cluster, vcenter)  # VFs of nodes without other needs; the others hold theirs


def reserve_again(cluster: VirtualCluster, vcenter: VCenter) -> None:
    """What approval reserved, taken again by the reconciler (idempotent: normally nothing new)."""
    take_devices(cluster, vcenter)
    segment = cluster.segment if cluster.segment_id else tenant_segment(cluster, vcenter)
    if segment is not None:
        ipam.reserve(cluster, segment, wanted_addresses(cluster), exclude=underlay_addresses())


def nsx_realization(cluster: VirtualCluster) -> list[dict]:
    """What NSX's realized-state API last said of the tenant's objects on this site (one query)."""
    manager = cluster.site.nsx_manager()
    if manager is None:
        return []
    rows = manager.owned.filter(Q(tenant_id=cluster.tenant_id) | Q(tenant=None)).order_by("kind", "path")[:100]
    return [{"object": r.path, "kind": r.get_kind_display(), "state": r.state, "label": r.get_state_display(),
             "message": r.message} for r in rows]  # fmt: skip


class VSphereRealizer(Realizer):
    """Clusters on a vCenter: a VLAN segment per tenant, VFs, then the vsphere reconciler."""

    kind = SiteKind.VSPHERE
    site_model = "vsphere.vcenter"

    def default_site(self, cluster):
        """The only registered vCenter; with several the approving admin must name one."""
        vcenters = list(VCenter.objects.order_by("name")[:2])
        if len(vcenters) > 1:
            raise InvalidRequest("Several vCenters are registered: name the one this cluster goes to.", "site")
        return vcenters[0] if vcenters else None

    def find_site(self, site_id: int):
        return VCenter.objects.filter(pk=site_id).first()

    def reserve(self, cluster, user, site) -> Placement:
        """The tenant's segment, the devices, VFs and addresses the cluster's shape needs (Conflict when short).

        Refused too when the tenant's policy holds a rule the port group's traffic filter cannot enforce.
        """
        from vsphere.intent import filter_rules

        if not is_overlay(cluster):  # NSX's distributed firewall enforces what a port group's filter cannot
            filter_rules(cluster)  # raises InvalidRequest naming the rule
        refuse_unrealizable(cluster, site)  # NotOffered: an attachment, data path or GPU this vCenter lacks
        segment = cluster.segment if cluster.segment_id else ensure_segment(cluster, site, user)
        take_devices(cluster, site)
        ipam.reserve(cluster, segment, wanted_addresses(cluster), exclude=underlay_addresses())
        return Placement(self.kind, site, segment)

    def offers(self) -> list:
        """What each registered vCenter offers, from its inventory in PostgreSQL."""
        sites = sites_capacity(VCenter.objects.select_related("nsx").order_by("name"))
        return [capabilities.site_offers(site.vcenter, site) for site in sites]

    def refusals(self, cluster, site=None) -> list[str] | None:
        """Why `site` (or every vCenter, when none is named) cannot realize the request; None: no vCenter."""
        sites = sites_capacity([site] if site is not None else VCenter.objects.select_related("nsx").order_by("name"))
        reasons: list[str] = []
        for capacity in sites:
            found = capabilities.refusals(cluster, capacity.vcenter, capacity)
            if not found:
                return []
            prefix = f"{capacity.vcenter.name}: " if len(sites) > 1 else ""
            reasons += [prefix + reason for reason in found]
        return reasons or None

    def queue(self, cluster_id: int) -> None:
        from vsphere.tasks import reconcile_cluster

        reconcile_cluster.delay(cluster_id)

    def observe(self, cluster) -> SiteView:
        """VMs with roles, host names, addresses (IPAM) and attachments, and how their traffic is protected."""
        from vsphere.intent import guest_domain, host_name, node_names, portgroup_name

        layout, needs = devices.layout(cluster), node_needs(cluster)
        ips: dict[str, dict[str, str]] = {}
        for address in ipam.held(cluster):
            ips.setdefault(address.node_name, {})[address.nic] = address.address
        domain = guest_domain(cluster, ipam.site_settings())
        view = SiteView(site=cluster.site.name if cluster.site_id else "")
        for role, name in node_names(cluster):
            nics = ips.get(name, {})
            node = {"name": name, "role": VMRole(role).label, "host_name": f"{host_name(cluster, name)}.{domain}",
                    "addresses": [nics[n] for n in NIC_ORDER if n in nics],
                    "devices": layout.node_devices(name, needs[name]).describe()}  # fmt: skip
            view.nodes.append(node)
            if role == VMRole.LOGIN and nics.get(NicRole.PRIMARY):
                view.login = {"host_name": node["host_name"], "address": nics[NicRole.PRIMARY]}
        if cluster.segment_id and cluster.segment.kind == SegmentKind.OVERLAY:
            view.realization = nsx_realization(cluster)
            view.enforcement.append(
                f"The tenant's firewall policy is enforced on every VM's adapter by the NSX distributed firewall of "
                f"{cluster.site.name}, compiled from the same rules as the Linux nodes'; its VMs sit on NSX overlay "
                f"segment {cluster.segment.name} (GENEVE)."
            )
        elif cluster.segment_id:
            pg = portgroup_name(cluster, cluster.segment.vlan_id)
            view.enforcement.append(
                f"The tenant's firewall policy is enforced on every VM's primary adapter by the traffic filter of "
                f"port group {pg} (VLAN {cluster.segment.vlan_id}), compiled from the same rules as the Linux nodes'."
            )
        view.unprotected += unprotected_paths(cluster)
        return view
