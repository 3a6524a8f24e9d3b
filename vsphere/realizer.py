"""The vSphere realizer: where approval meets vCenter (registered in VsphereConfig.ready)."""

from django.db.models import Q

from netpolicy import ipam
from netpolicy.choices import SegmentKind
from netpolicy.models import NicRole
from tenants.choices import Interconnect, SiteKind
from tenants.models import VirtualCluster
from tenants.realizers import Placement, Realizer, SiteView
from vsphere.choices import NodeRole as VMRole
from vsphere.models import Placement as SitePlacement
from vsphere.models import VCenter, placement_of
from vsphere.naming import guest_domain, host_name, node_names, portgroup_name
from vsphere.placement import hosts, reserve, vm_names
from vsphere.plan import capabilities
from vsphere.plan.capacity import node_needs, sites_capacity
from vsphere.tasks import reconcile_cluster

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
VF_LABELS = {Interconnect.SRIOV_IB: "SR-IOV InfiniBand", Interconnect.SRIOV_ROCE: "SR-IOV RoCE"}


def nic_label(cluster: VirtualCluster, role: str) -> str:
    """What an address is on, in the access card's words: the tenant network, the cluster's VF, or PVRDMA."""
    if role == NicRole.PRIMARY:
        return "tenant network"
    if role == NicRole.PVRDMA:
        return "PVRDMA"
    return VF_LABELS.get(cluster.interconnect, "SR-IOV")


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
    site = placement_of(cluster).site
    if site is not None and site.management_network:
        notes.append(f"Every VM also has a NIC on the site's management network {site.management_network}, "
                     f"outside the tenant's filter: {site.management_isolation}")  # fmt: skip
    return notes


def nsx_realization(cluster: VirtualCluster) -> list[dict]:
    """What NSX's realized-state API last said of the tenant's objects on this site (one query)."""
    manager = placement_of(cluster).site.nsx
    if manager is None:
        return []
    rows = manager.owned.filter(Q(tenant_id=cluster.tenant_id) | Q(tenant=None)).order_by("kind", "path")[:100]
    return [{"object": r.path, "kind": r.get_kind_display(), "state": r.state, "label": r.get_state_display(),
             "message": r.message} for r in rows]  # fmt: skip


class VSphereRealizer(Realizer):
    """Clusters on a vCenter: a VLAN segment per tenant, VFs, then the vsphere reconciler."""

    kind = SiteKind.VSPHERE
    site_model = "vsphere.vcenter"
    related = ("placement",)

    def default_site(self, cluster):
        """The only registered vCenter; with several the approving admin must name one."""
        return reserve.default_vcenter(cluster)

    def find_site(self, site_id: int):
        return VCenter.objects.filter(pk=site_id).first()

    def reserve(self, cluster, user, site) -> Placement:
        """The tenant's segment, the devices, VFs and addresses the cluster's shape needs (Conflict when short).

        Refused too when the tenant's policy holds a rule the port group's traffic filter cannot enforce.
        """
        return Placement(self.kind, site, reserve.reserve(cluster, user, site))

    def store(self, cluster, placement: Placement) -> None:
        """The vCenter and segment the approval reserved, and the cluster's VM names, in its vSphere placement.

        Conflict when another placed cluster holds those VM names (two approvals raced, or a request predates the
        submit check).
        """
        cluster.placement = vm_names.claim(cluster, placement.site, placement.segment)

    def placement(self, cluster) -> SitePlacement:
        return placement_of(cluster)

    def offers(self) -> list:
        """What each registered vCenter offers, from its inventory in PostgreSQL."""
        sites = sites_capacity(VCenter.objects.select_related("nsx").order_by("name"))
        return [capabilities.site_offers(site.vcenter, site) for site in sites]

    def refusals(self, cluster, site=None) -> list[str] | None:
        """Why `site` (or every vCenter, when none is named) cannot realize the request; None: no vCenter."""
        sites = sites_capacity([site] if site is not None else VCenter.objects.select_related("nsx").order_by("name"))
        taken = vm_names.refusal(cluster) if sites else None  # on every vCenter: a request has none until approval
        if taken:
            return [taken]
        reasons: list[str] = []
        for capacity in sites:
            found = capabilities.refusals(cluster, capacity.vcenter, capacity)
            if not found:
                return []
            prefix = f"{capacity.vcenter.name}: " if len(sites) > 1 else ""
            reasons += [prefix + reason for reason in found]
        return reasons or None

    def queue(self, cluster_id: int) -> None:
        reconcile_cluster.delay(cluster_id)

    def observe(self, cluster) -> SiteView:
        """VMs with roles, host names, addresses (IPAM) and attachments, and how their traffic is protected."""
        layout, needs = hosts.layout(cluster), node_needs(cluster)
        ips: dict[str, dict[str, str]] = {}
        for address in ipam.held(cluster):
            ips.setdefault(address.node_name, {})[address.nic] = address.address
        domain = guest_domain(cluster, ipam.site_settings())
        placed = placement_of(cluster)
        view = SiteView(site=placed.site.name if placed.site_id else "")
        for role, name in node_names(cluster):
            nics = ips.get(name, {})
            node = {"name": name, "role": VMRole(role).label, "host_name": f"{host_name(cluster, name)}.{domain}",
                    "addresses": [nics[n] for n in NIC_ORDER if n in nics],
                    "labelled": [(nic_label(cluster, n), nics[n]) for n in NIC_ORDER if n in nics],
                    "devices": layout.node_devices(name, needs[name]).describe()}  # fmt: skip
            view.nodes.append(node)
            if role == VMRole.LOGIN and nics.get(NicRole.PRIMARY):
                view.login = {"host_name": node["host_name"], "address": nics[NicRole.PRIMARY]}
        segment = placed.segment
        if segment is not None and segment.kind == SegmentKind.OVERLAY:
            view.realization = nsx_realization(cluster)
            view.enforcement.append(
                f"The tenant's firewall policy is enforced on every VM's adapter by the NSX distributed firewall of "
                f"{placed.site.name}, compiled from the same rules as the Linux nodes'; its VMs sit on NSX overlay "
                f"segment {segment.name} (GENEVE)."
            )
        elif segment is not None:
            pg = portgroup_name(cluster, segment.vlan_id)
            view.enforcement.append(
                f"The tenant's firewall policy is enforced on every VM's primary adapter by the traffic filter of "
                f"port group {pg} (VLAN {segment.vlan_id}), compiled from the same rules as the Linux nodes'."
            )
        view.unprotected += unprotected_paths(cluster)
        return view
