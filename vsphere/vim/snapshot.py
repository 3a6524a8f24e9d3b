"""One datacenter read in one property-collector call, parsed into the planner's observed dataclasses."""

from __future__ import annotations

from dataclasses import dataclass, field

from pyVmomi import vim, vmodl

from vsphere.errors import PermanentError
from vsphere.plan.specs import (
    MARKER_KEY,
    PVRDMA_KIND,
    ClusterIntent,
    Observed,
    ObservedDVS,
    ObservedNic,
    ObservedPortgroup,
    ObservedVM,
    PhysicalFunction,
    PowerState,
)
from vsphere.vim.devices import observed_devices
from vsphere.vim.faults import guarded, require_marker
from vsphere.vim.filters import parse_filter
from vsphere.vim.specs import ADAPTER_TYPES, DESCRIPTION_PREFIX


@dataclass
class Snapshot:
    """Everything of interest in one datacenter, read in one property-collector call."""

    datacenter: object
    vm_folder: object
    network_folder: object
    vms: dict[str, tuple[ObservedVM, object]] = field(default_factory=dict)
    switches: dict[str, tuple[ObservedDVS, object]] = field(default_factory=dict)
    portgroups: dict[str, tuple[ObservedPortgroup, object]] = field(default_factory=dict)
    hosts: dict[str, object] = field(default_factory=dict)
    clusters: dict[str, tuple[object, list[str]]] = field(default_factory=dict)  # pool, hosts
    datastores: dict[str, object] = field(default_factory=dict)
    pfs: dict[str, dict[str, PhysicalFunction]] = field(default_factory=dict)
    dvs_config_version: dict[str, str] = field(default_factory=dict)
    pg_config_version: dict[str, str] = field(default_factory=dict)
    networks: dict[str, object] = field(default_factory=dict)  # standard (host) networks by name

    def vm_mor(self, name: str):
        """Managed object of a VM by name (KeyError if absent)."""
        return self.vms[name][1]

    def owned_vm(self, name: str, marker: str):
        """(observed VM, managed object) of a VM of ours; refused when its marker is not `marker`."""
        if name not in self.vms:
            raise PermanentError(f"VM {name!r} not found", fault="NotFound")
        vm, vm_mor = self.vms[name]
        require_marker("VM", name, vm.marker, marker)
        return vm, vm_mor


VM_PATHS = [
    "name",
    "config.template",
    "config.extraConfig",
    "config.hardware.numCPU",
    "config.hardware.memoryMB",
    "config.memoryReservationLockedToMax",
    "config.latencySensitivity",
    "config.hardware.device",
    "runtime.powerState",
    "runtime.host",
    "guest.net",
    "guest.hostName",
    "config.tools.pendingCustomization",
]
# "config" whole: the simulator's switch is the base type, which has no maxMtu path.
DVS_PATHS = ["name", "uuid", "config", "summary.hostMember"]
PG_PATHS = ["name", "key", "config"]
HOST_PATHS = ["name", "config.pciPassthruInfo", "config.network.pnic", "hardware.pciDevice"]
SNAPSHOT_TYPES = {
    vim.VirtualMachine: VM_PATHS,
    vim.DistributedVirtualSwitch: DVS_PATHS,
    vim.dvs.DistributedVirtualPortgroup: PG_PATHS,
    vim.HostSystem: HOST_PATHS,
    vim.ClusterComputeResource: ["name", "resourcePool", "host"],
    vim.Datastore: ["name"],
    vim.Network: ["name"],  # standard networks (port groups come with their own paths)
}


def _vm_marker(props: dict) -> str:
    for option in props.get("config.extraConfig") or []:
        if option.key == MARKER_KEY:
            return str(option.value)
    return ""


def _description_marker(props: dict) -> str:
    description = getattr(props.get("config"), "description", None) or ""
    return description[len(DESCRIPTION_PREFIX) :] if description.startswith(DESCRIPTION_PREFIX) else ""


def _nic_kind(dev) -> str:
    """The NIC's kind: sriov, pvrdma, an Adapter value, or the vSphere type name (VirtualE1000, ...)."""
    if isinstance(dev, vim.vm.device.VirtualSriovEthernetCard):
        return "sriov"
    if isinstance(dev, vim.vm.device.VirtualVmxnet3Vrdma):
        return PVRDMA_KIND
    for adapter, cls in ADAPTER_TYPES.items():
        if type(dev) is cls:
            return adapter.value
    return type(dev).__name__.rsplit(".", 1)[-1]


def _nic_network(backing, pg_names: dict[str, str]) -> tuple[str, str, str]:
    """(network name, port group key, switch uuid) of a NIC's backing."""
    port = getattr(backing, "port", None)
    if port is not None:
        key = getattr(port, "portgroupKey", "") or ""
        return pg_names.get(key, key), key, getattr(port, "switchUuid", "") or ""
    if isinstance(backing, vim.vm.device.VirtualEthernetCard.OpaqueNetworkBackingInfo):
        return f"opaque:{backing.opaqueNetworkId}", "", ""
    return getattr(backing, "deviceName", "") or "", "", ""


def _parse_nics(devices, pg_names: dict[str, str]) -> tuple[ObservedNic, ...]:
    nics = []
    for dev in devices or []:
        if not isinstance(dev, vim.vm.device.VirtualEthernetCard):
            continue
        pf_backing = getattr(getattr(dev, "sriovBacking", None), "physicalFunctionBacking", None)
        network, pg_key, switch = _nic_network(dev.backing, pg_names)
        nics.append(
            ObservedNic(
                key=dev.key,
                pf=getattr(pf_backing, "id", "") or "",
                portgroup_key=pg_key,
                switch_uuid=switch,
                kind=_nic_kind(dev),
                network=network,
                mac=(getattr(dev, "macAddress", "") or "").lower(),
            )
        )
    return tuple(nics)


def _guest_ips(guest_net) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """(NIC device key, addresses) as VMware Tools report them."""
    return tuple((nic.deviceConfigId, tuple(nic.ipAddress or ())) for nic in guest_net or [] if nic.deviceConfigId)


def _parse_vm(moid: str, props: dict, host_names: dict, pg_names: dict[str, str]) -> ObservedVM:
    latency = props.get("config.latencySensitivity")
    host = props.get("runtime.host")
    return ObservedVM(
        name=props.get("name", ""),
        moid=moid,
        marker=_vm_marker(props),
        host=host_names.get(host._moId, "") if host is not None else "",
        cpus=props.get("config.hardware.numCPU") or 0,
        memory_mb=props.get("config.hardware.memoryMB") or 0,
        reservation_locked=bool(props.get("config.memoryReservationLockedToMax")),
        latency_high=getattr(latency, "level", "") == "high",
        power=PowerState(props.get("runtime.powerState") or PowerState.OFF),
        nics=_parse_nics(props.get("config.hardware.device"), pg_names),
        template=bool(props.get("config.template")),
        guest_host_name=props.get("guest.hostName") or "",
        guest_ips=_guest_ips(props.get("guest.net")),
        customization_pending=bool(props.get("config.tools.pendingCustomization")),
        devices=observed_devices(props.get("config.hardware.device")),
    )


def _parse_pfs(host: str, props: dict) -> dict[str, PhysicalFunction]:
    pnics = {nic.pci: nic.device for nic in props.get("config.network.pnic") or []}
    devices = {dev.id: dev for dev in props.get("hardware.pciDevice") or []}
    pfs = {}
    for info in props.get("config.pciPassthruInfo") or []:
        if not isinstance(info, vim.host.SriovInfo) or not info.sriovEnabled:
            continue
        dev = devices.get(info.id)
        pfs[info.id] = PhysicalFunction(
            host=host,
            pci_id=info.id,
            pnic=pnics.get(info.id, ""),
            num_vfs=info.numVirtualFunction,
            max_vfs=info.maxVirtualFunctionSupported,
            vendor_id=(dev.vendorId & 0xFFFF) if dev else 0,
            device_id=(dev.deviceId & 0xFFFF) if dev else 0,
        )
    return pfs


def _vlan_of(config) -> int | None:
    vlan = getattr(getattr(config, "defaultPortConfig", None), "vlan", None)
    value = getattr(vlan, "vlanId", None)
    return value if isinstance(value, int) else None


def read(content, dc) -> Snapshot:
    """Read VMs, switches, port groups, hosts, clusters and datastores in one call."""
    contents = retrieve_view(content, dc)
    snap = Snapshot(datacenter=dc, vm_folder=None, network_folder=None)
    by_type: dict[type, list] = {}
    for content in contents:
        props = {p.name: p.val for p in content.propSet or []}
        if isinstance(content.obj, vim.Datacenter):
            snap.vm_folder, snap.network_folder = props["vmFolder"], props["networkFolder"]
            continue
        by_type.setdefault(type(content.obj), []).append((content.obj, props))
    _fill_inventory(snap, by_type)
    _fill_network(snap, by_type)
    host_names = {mor._moId: name for name, mor in snap.hosts.items()}
    pg_names = {pg.key: name for name, (pg, _mor) in snap.portgroups.items()}
    for mor, props in by_type.get(vim.VirtualMachine, []):
        vm = _parse_vm(mor._moId, props, host_names, pg_names)
        snap.vms[vm.name] = (vm, mor)
    return snap


def retrieve_view(content, dc, types: dict | None = None) -> list:
    """Properties of every object of the given types in the datacenter, in one property-collector call."""
    pc = vmodl.query.PropertyCollector
    types = SNAPSHOT_TYPES if types is None else types
    with guarded("read inventory"):
        view = content.viewManager.CreateContainerView(dc, list(types), True)
        try:
            spec = pc.FilterSpec(
                objectSet=[
                    pc.ObjectSpec(
                        obj=view,
                        skip=True,
                        selectSet=[pc.TraversalSpec(path="view", type=vim.view.ContainerView)],
                    ),
                    pc.ObjectSpec(obj=dc),
                ],
                propSet=[pc.PropertySpec(type=t, pathSet=p) for t, p in types.items()]
                + [pc.PropertySpec(type=vim.Datacenter, pathSet=["vmFolder", "networkFolder"])],
            )
            collector = content.propertyCollector
            result = collector.RetrievePropertiesEx([spec], pc.RetrieveOptions())
            objects = list(result.objects) if result else []
            while result is not None and result.token:
                result = collector.ContinueRetrievePropertiesEx(result.token)
                objects += list(result.objects)
            return objects
        finally:
            view.DestroyView()


def _fill_inventory(snap: Snapshot, by_type: dict) -> None:
    for mor, props in by_type.get(vim.HostSystem, []):
        snap.hosts[props["name"]] = mor
        snap.pfs[props["name"]] = _parse_pfs(props["name"], props)
    host_names = {mor._moId: name for name, mor in snap.hosts.items()}
    for _mor, props in by_type.get(vim.ClusterComputeResource, []):
        hosts = [host_names.get(h._moId, "") for h in props.get("host") or []]
        snap.clusters[props["name"]] = (props.get("resourcePool"), hosts)
    for mor, props in by_type.get(vim.Datastore, []):
        snap.datastores[props["name"]] = mor
    for mor, props in by_type.get(vim.Network, []):
        snap.networks[props["name"]] = mor


def _fill_network(snap: Snapshot, by_type: dict) -> None:
    switch_types = [t for t in by_type if issubclass(t, vim.DistributedVirtualSwitch)]
    host_names = {mor._moId: name for name, mor in snap.hosts.items()}
    for kind in switch_types:
        for mor, props in by_type[kind]:
            config = props.get("config")
            dvs = ObservedDVS(
                name=props["name"],
                moid=mor._moId,
                marker=_description_marker(props),
                uuid=props.get("uuid", ""),
                mtu=getattr(config, "maxMtu", 0) or 0,
                hosts=tuple(host_names.get(h._moId, "") for h in props.get("summary.hostMember") or []),
            )
            snap.switches[dvs.name] = (dvs, mor)
            snap.dvs_config_version[dvs.name] = getattr(config, "configVersion", "") or ""
    uuids = {mor._moId: dvs.uuid for dvs, mor in snap.switches.values()}
    for mor, props in by_type.get(vim.dvs.DistributedVirtualPortgroup, []):
        config = props.get("config")
        switch = getattr(config, "distributedVirtualSwitch", None)
        pg = ObservedPortgroup(
            name=props["name"],
            moid=mor._moId,
            key=props.get("key", ""),
            marker=_description_marker(props),
            vlan=_vlan_of(config),
            switch_uuid=uuids.get(switch._moId, "") if switch is not None else "",
            filter_rules=parse_filter(config),
            num_ports=getattr(config, "numPorts", 0) or 0,
        )
        snap.portgroups[pg.name] = (pg, mor)
        snap.pg_config_version[pg.name] = getattr(config, "configVersion", "") or ""


def observed_from(snap, intent: ClusterIntent) -> Observed:
    """Project a datacenter snapshot onto what one cluster intent cares about."""
    names = {node.name for node in intent.nodes}
    prefix = intent.marker + "/" if intent.marker else None
    observed = Observed(pfs=snap.pfs)
    pg = snap.portgroups.get(intent.portgroup)
    for name, (vm, _mor) in snap.vms.items():
        if vm.template:
            if name == intent.template:
                observed.template_nics = vm.nics
            continue
        if name in names or (prefix and vm.marker.startswith(prefix)):
            observed.vms[name] = vm
        for nic in vm.sriov_nics:
            observed.vf_users.setdefault((vm.host, nic.pf), []).append(name)
        if pg and any(nic.portgroup_key == pg[0].key for nic in vm.nics):
            observed.portgroup_users.append(name)
    if intent.dvs_name in snap.switches:
        observed.dvs = snap.switches[intent.dvs_name][0]
    if pg:
        observed.portgroup = pg[0]
    return observed
