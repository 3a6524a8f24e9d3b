"""Translate the database's intent (cluster, VF assignments, site) into the driver's dataclasses."""

from core.errors import InvalidRequest
from netpolicy import ipam
from tenants.choices import WorkloadClass
from tenants.models import VirtualCluster
from vsphere.models import PhysicalFunction, VCenter
from vsphere.naming import cluster_marker, host_name, node_marker, node_names
from vsphere.placement.hosts import Placement, layout, needs_placement, place
from vsphere.placement.vfs import tentative
from vsphere.plan import vf_mac
from vsphere.plan.capacity import describe, node_needs
from vsphere.plan.network import DECOMMISSION_STATES, PREVIEW_STATES, filter_rules, guest_network, network
from vsphere.plan.specs import Adapter, ClusterIntent, NicRole, NodeIntent
from vsphere.plan.specs import PhysicalFunction as PFSpec
from vsphere.vim.driver import VCenterConfig


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


def _layout(cluster: VirtualCluster, vcenter: VCenter) -> Placement:
    """Where constrained nodes run and what they hold; before approval where approval would put them."""
    if cluster.state not in PREVIEW_STATES:
        return layout(cluster)
    placement = place(cluster, vcenter, take=False) if needs_placement(cluster) else Placement()
    if cluster.uses_sriov:
        for name, pf in tentative(cluster, vcenter).items():
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
            raise InvalidRequest(f"{name} has no host placed for {describe(needs[name])}.")
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
