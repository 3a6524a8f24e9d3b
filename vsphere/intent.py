"""Translate the database's intent (cluster, VF assignments, site) into the driver's dataclasses."""

import ipaddress
from dataclasses import dataclass

from core.errors import InvalidRequest
from netpolicy import ipam
from netpolicy.choices import SegmentKind
from netpolicy.compiler import vds
from netpolicy.compiler.model import PolicyError
from netpolicy.compiler.vds import VdsRule
from netpolicy.ir import build_site, tenant_name
from netpolicy.segments import peek_next_id
from nsx.realize import segment_name as nsx_segment_name
from tenants.choices import ClusterState, WorkloadClass
from tenants.models import VirtualCluster
from vsphere import allocation, devices, vf_mac
from vsphere.capacity import node_needs
from vsphere.driver import VCenterConfig
from vsphere.models import PhysicalFunction, VCenter
from vsphere.realizer import is_overlay, refuse_overlay, tenant_segment
from vsphere.specs import Adapter, ClusterIntent, GuestNetwork, NicRole, NodeIntent
from vsphere.specs import PhysicalFunction as PFSpec
from vsphere.verbs import node_marker

DECOMMISSION_STATES = {ClusterState.DECOMMISSIONING, ClusterState.RETIRED}
# Before approval VFs are not taken yet: the plan preview places nodes tentatively.
PREVIEW_STATES = {ClusterState.DRAFT, ClusterState.SUBMITTED, ClusterState.ENDORSED}


def node_names(cluster: VirtualCluster) -> list[tuple[str, str]]:
    """(role, VM name) of every node; names are deterministic so retries find the same VMs."""
    base = f"{cluster.tenant.slug}-{cluster.name}"
    names = [("login", f"{base}-login")] if cluster.login_node else []
    names.append(("mgr", f"{base}-mgr"))
    names += [("w", f"{base}-w{i:02d}") for i in range(1, cluster.worker_count + 1)]
    return names


def cluster_marker(cluster: VirtualCluster) -> str:
    """The Enclave id vCenter objects of this cluster carry."""
    return f"enclave:cluster:{cluster.pk}"


def vcenter_config(vcenter: VCenter) -> VCenterConfig:
    """Connection settings for the driver."""
    return VCenterConfig(
        host=vcenter.host,
        port=vcenter.port,
        user=vcenter.username,
        password=vcenter.secret(),
        ca_bundle=vcenter.ca_bundle_path(),
        insecure=vcenter.skips_tls_verification,
    )


def inventory(vcenter: VCenter) -> dict[str, dict[str, PFSpec]]:
    """PFs per host as the database knows them (discovered or entered by admins)."""
    result: dict[str, dict[str, PFSpec]] = {}
    for pf in PhysicalFunction.objects.filter(host__vcenter=vcenter).select_related("host"):
        result.setdefault(pf.host.name, {})[pf.pci_id] = PFSpec(
            host=pf.host.name, pci_id=pf.pci_id, pnic=pf.pnic, num_vfs=pf.max_vfs, max_vfs=pf.firmware_num_vfs
        )
    return result


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
    segment = cluster.segment if cluster.segment_id else tenant_segment(cluster, vcenter)
    if segment is None:
        raise NoVlanSegment(f"Tenant {cluster.tenant.slug} has no VLAN segment on vSphere cluster "
                            f"{vcenter.compute_cluster}.")  # fmt: skip
    return segment.vlan_id


def network(cluster: VirtualCluster, vcenter: VCenter) -> Network:
    """Where the cluster's VMs attach; raises NoVlanSegment before approval placed a segment."""
    refuse_overlay(cluster, vcenter)
    if is_overlay(cluster):
        segment = cluster.segment if cluster.segment_id else tenant_segment(cluster, vcenter)
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


def cluster_intent(cluster: VirtualCluster, vcenter: VCenter) -> ClusterIntent:
    """What vCenter must hold for this cluster now (nothing, once decommissioning)."""
    decommission = cluster.state in DECOMMISSION_STATES
    net = network(cluster, vcenter)
    hosts = list(vcenter.hosts.filter(compute_cluster=vcenter.compute_cluster).values_list("name", flat=True))
    marker = cluster_marker(cluster)
    return ClusterIntent(
        datacenter=vcenter.datacenter,
        compute_cluster=vcenter.compute_cluster,
        template=vcenter.template,
        dvs_name=vcenter.dvs_name,
        dvs_marker=f"enclave:vcenter:{vcenter.pk}:dvs",
        uplink_pnic=vcenter.uplink_pnic,
        portgroup=net.portgroup,
        portgroup_marker=net.marker,
        vlan=net.vlan,
        portgroup_external=net.external,
        hosts=tuple(hosts),
        nodes=() if decommission else _nodes(cluster, vcenter, hosts, marker),
        marker=marker,
        decommission=decommission,
        management_network=vcenter.management_network,
        guest=None if decommission else guest_network(cluster, vcenter),
        filter_rules=None if decommission or net.external else filter_rules(cluster),
    )


def filter_rules(cluster: VirtualCluster) -> tuple[VdsRule, ...]:
    """The tenant's policy (site policies included) compiled for its port group's traffic filter."""
    try:
        return vds.compile_tenant(build_site([cluster.tenant]), tenant_name(cluster.tenant_id))
    except PolicyError as exc:
        raise InvalidRequest(f"The tenant's policy cannot be enforced on vSphere: {exc}") from None


def guest_network(cluster: VirtualCluster, vcenter: VCenter) -> GuestNetwork:
    """Prefix, gateway, resolvers and domain of the cluster's segment for guest customization."""
    settings = ipam.site_settings()
    segment = cluster.segment if cluster.segment_id else tenant_segment(cluster, vcenter)
    prefix, gateway = (ipaddress.ip_network(segment.subnet).prefixlen, segment.gateway) if segment else (0, "")
    return GuestNetwork(prefix, gateway, tuple(settings.dns_servers), guest_domain(cluster, settings))


def guest_domain(cluster: VirtualCluster, settings) -> str:
    """The tenant's DNS domain under the site's (RFC 8375-style .internal when the site has none)."""
    return f"{cluster.tenant.slug}.{settings.dns_domain or 'internal'}"


def host_name(cluster: VirtualCluster, vm_name: str) -> str:
    """The guest's host name: the cluster's name and the node's suffix, one DNS label (<= 63)."""
    suffix = vm_name.rsplit("-", 1)[-1]
    return f"{cluster.name[: 62 - len(suffix)].rstrip('-')}-{suffix}"


TENANT_PORTGROUP_PREFIX = "enclave-"


def portgroup_name(cluster: VirtualCluster, vlan: int) -> str:
    """One port group per tenant VLAN segment."""
    return f"{TENANT_PORTGROUP_PREFIX}{cluster.tenant.slug}-vlan{vlan}"


def portgroup_marker(cluster: VirtualCluster, vlan: int) -> str:
    """The Enclave id of a tenant segment's port group."""
    return f"enclave:segment:{cluster.tenant.slug}:vlan{vlan}"


def _layout(cluster: VirtualCluster, vcenter: VCenter) -> devices.Placement:
    """Where constrained nodes run and what they hold; before approval where approval would put them."""
    if cluster.state not in PREVIEW_STATES:
        return devices.layout(cluster)
    placement = devices.place(cluster, vcenter, take=False) if devices.needs_placement(cluster) else devices.Placement()
    if cluster.uses_sriov:
        for name, pf in allocation.tentative(cluster, vcenter).items():
            placement.vfs.setdefault(name, pf)
    return placement


def _nodes(cluster: VirtualCluster, vcenter: VCenter, hosts: list[str], marker: str) -> tuple[NodeIntent, ...]:
    if not hosts:
        raise InvalidRequest("The vCenter has no discovered hosts; run discovery first.")
    layout, needs = _layout(cluster, vcenter), node_needs(cluster)
    latency = cluster.workload_class == WorkloadClass.PARALLEL
    ips = {(a.node_name, a.nic): a.address for a in ipam.held(cluster)}
    nodes = []
    for i, (role, name) in enumerate(node_names(cluster)):
        # After SR-IOV is removed the old assignments linger until converge succeeds: ignore them.
        pf = layout.vfs.get(name) if cluster.uses_sriov else None
        if cluster.uses_sriov and role != "login" and pf is None:
            raise InvalidRequest(f"{name} has no SR-IOV VF assigned.")
        pinned = needs[name].constrained
        if pinned and name not in layout.hosts:
            raise InvalidRequest(f"{name} has no host placed for {devices.describe(needs[name])}.")
        nodes.append(
            NodeIntent(
                name=name,
                marker=node_marker(marker, name),
                host=layout.hosts[name] if pinned else (pf.host.name if pf else hosts[i % len(hosts)]),
                cpus=cluster.vcpus_per_node,
                memory_mb=cluster.memory_gb_per_node * 1024,
                sriov_pfs=(pf.pci_id,) if pf else (),
                latency_high=latency,
                adapter=Adapter(cluster.nic_type),
                host_name=host_name(cluster, name),
                primary_ip=ips.get((name, NicRole.PRIMARY), ""),
                sriov_ips=(ips[(name, NicRole.SRIOV)],) if pf and (name, NicRole.SRIOV) in ips else (),
                sriov_macs=(vf_mac.mac_for_guid(layout.vf_guids.get(name)),) if pf else (),
                devices=layout.node_devices(name, needs[name]),
                pvrdma_ip=ips.get((name, NicRole.PVRDMA), ""),
                pinned=pinned,
            )
        )
    return tuple(nodes)
