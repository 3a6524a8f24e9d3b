"""The one module that speaks to vCenter through pyvmomi: connection, waiting, reads, verbs."""

from __future__ import annotations

import contextlib
import ssl
from collections.abc import Iterable
from dataclasses import dataclass, field

from pyVim.connect import Disconnect, SmartConnect
from pyVmomi import vim, vmodl

from vsphere.errors import PermanentError, VSphereError
from vsphere.plan.specs import (
    MARKER_KEY,
    PVRDMA_KIND,
    NodeIntent,
    ObservedDVS,
    ObservedNic,
    ObservedPortgroup,
    ObservedVM,
    PhysicalFunction,
    PowerState,
)
from vsphere.vim.devices import DeviceDriverMixin, observed_devices
from vsphere.vim.faults import fault_of, guarded
from vsphere.vim.specs import (
    ADAPTER_TYPES,
    DESCRIPTION_PREFIX,
    adapter_spec,
    customization_spec,
    dvs_create_spec,
    dvs_hosts_spec,
    dvs_mtu_spec,
    parse_filter,
    portgroup_spec,
    remove_nic_spec,
    sriov_nic_spec,
    vm_config_spec,
)
from vsphere.vim.verbs import VerbsMixin

TASK_PATHS = ["info.state", "info.error", "info.result"]


@dataclass(frozen=True)
class VCenterConfig:
    """How to reach one vCenter; TLS verification is on unless `insecure` is set."""

    host: str
    user: str
    password: str
    port: int = 443
    ca_bundle: str | None = None
    insecure: bool = False
    max_wait_seconds: int = 2  # bound of one WaitForUpdatesEx before the fallback read
    http_timeout: int = 60
    pool_size: int = 16  # concurrent SOAP calls of one batch


@dataclass
class TaskDone:
    """Outcome of one finished vSphere task."""

    moid: str
    ok: bool
    result: object = None
    error: VSphereError | None = None


# ---------------------------------------------------------------- waiting


class TaskWatch:
    """Waits on many tasks with one private property collector; filters are always destroyed."""

    def __init__(self, collector, max_wait_seconds: int):
        self._root_pc = collector
        self._max_wait = max_wait_seconds
        self._pc = None
        self._filters: list = []
        self._version = ""
        self._pending: dict[str, tuple[object, str]] = {}  # moid -> (task, step)
        self._seen: dict[str, dict] = {}

    def __enter__(self) -> TaskWatch:
        with guarded("create property collector"):
            self._pc = self._root_pc.CreatePropertyCollector()
        return self

    def __exit__(self, *exc) -> None:
        try:
            for filter_, _moids in self._filters:
                with contextlib.suppress(Exception):
                    filter_.DestroyPropertyFilter()
        finally:
            self._filters = []
            with contextlib.suppress(Exception):
                self._pc.DestroyPropertyCollector()

    def _drop_finished_filters(self) -> None:
        # A filter whose tasks all finished only costs the collector work on every update.
        keep = []
        for filter_, moids in self._filters:
            if moids & self._pending.keys():
                keep.append((filter_, moids))
            else:
                with guarded("destroy task filter"):
                    filter_.DestroyPropertyFilter()
        self._filters = keep

    @property
    def pending(self) -> int:
        """How many added tasks have not finished yet."""
        return len(self._pending)

    def add(self, tasks: Iterable[tuple[object, str]]) -> None:
        """Watch more tasks, each given with the step name used in errors."""
        tasks = list(tasks)
        if not tasks:
            return
        spec = vmodl.query.PropertyCollector.FilterSpec(
            objectSet=[vmodl.query.PropertyCollector.ObjectSpec(obj=t) for t, _ in tasks],
            propSet=[vmodl.query.PropertyCollector.PropertySpec(type=vim.Task, pathSet=TASK_PATHS)],
        )
        with guarded("create task filter"):
            filter_ = self._pc.CreateFilter(spec, partialUpdates=False)
        self._filters.append((filter_, {task._moId for task, _ in tasks}))
        for task, step in tasks:
            self._pending[task._moId] = (task, step)
        self._version = ""  # an empty version returns the new tasks' current state at once

    def next_done(self) -> list[TaskDone]:
        """Block up to max_wait_seconds and return the tasks that finished meanwhile."""
        options = vmodl.query.PropertyCollector.WaitOptions(maxWaitSeconds=self._max_wait)
        with guarded("wait for tasks"):
            update = self._pc.WaitForUpdatesEx(self._version, options)
        if update is None:
            # No update within the bound: the simulator drops some under load, so read.
            return self._fallback_read()
        self._version = update.version
        for filter_update in update.filterSet or []:
            for obj in filter_update.objectSet or []:
                props = self._seen.setdefault(obj.obj._moId, {})
                for change in obj.changeSet or []:
                    props[change.name] = change.val
        return self._collect_finished()

    def _fallback_read(self) -> list[TaskDone]:
        if not self._pending:
            return []
        spec = vmodl.query.PropertyCollector.FilterSpec(
            objectSet=[vmodl.query.PropertyCollector.ObjectSpec(obj=task) for task, _ in self._pending.values()],
            propSet=[vmodl.query.PropertyCollector.PropertySpec(type=vim.Task, pathSet=TASK_PATHS)],
        )
        with guarded("read task state"):
            result = self._pc.RetrievePropertiesEx([spec], vmodl.query.PropertyCollector.RetrieveOptions())
        for content in (result.objects if result else None) or []:
            props = self._seen.setdefault(content.obj._moId, {})
            for prop in content.propSet or []:
                props[prop.name] = prop.val
        return self._collect_finished()

    def _collect_finished(self) -> list[TaskDone]:
        done = []
        for moid in list(self._pending):
            props = self._seen.get(moid, {})
            state = props.get("info.state")
            if state not in ("success", "error"):
                continue
            _task, step = self._pending.pop(moid)
            if state == "success":
                done.append(TaskDone(moid, True, result=props.get("info.result")))
            else:
                done.append(TaskDone(moid, False, error=fault_of(props.get("info.error"), step)))
        if done:
            self._drop_finished_filters()
        return done

    def wait_all(self) -> list[TaskDone]:
        """Wait until every added task finished; return all outcomes."""
        outcomes = []
        while self._pending:
            outcomes += self.next_done()
        return outcomes


# ---------------------------------------------------------------- snapshot


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


# ---------------------------------------------------------------- driver


def _ssl_context(cfg: VCenterConfig) -> ssl.SSLContext:
    if cfg.insecure:
        return ssl._create_unverified_context()  # noqa: S323  (explicit, visible lab switch)
    return ssl.create_default_context(cafile=cfg.ca_bundle)


class Driver(VerbsMixin, DeviceDriverMixin):
    """A logged-in vCenter session: reads, batchable task starters, and (from VerbsMixin)
    the idempotent ensure verbs built on them."""

    def __init__(self, config: VCenterConfig):
        self.config = config
        self.si = None
        self._content = None
        self._datacenters: dict[str, object] = {}

    # -- session

    def connect(self) -> Driver:
        """Log in; TLS is verified against the CA bundle (or system CAs) unless insecure."""
        cfg = self.config
        context = _ssl_context(cfg)
        with guarded("connect"):
            self.si = SmartConnect(
                host=cfg.host,
                port=cfg.port,
                user=cfg.user,
                pwd=cfg.password,
                sslContext=context,
                httpConnectionTimeout=cfg.http_timeout,
            )
        self.si._stub.poolSize = cfg.pool_size
        with guarded("read service content"):
            self._content = self.si.RetrieveContent()  # each si.content access is a round trip
        return self

    def close(self) -> None:
        """Log out; a dead connection is not an error here."""
        if self.si is not None:
            with contextlib.suppress(Exception):
                Disconnect(self.si)
            self.si = None

    def __enter__(self) -> Driver:
        return self.connect() if self.si is None else self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def content(self):
        """The service content, read once per session."""
        return self._content

    # -- waiting

    def watch(self) -> TaskWatch:
        """A collector for waiting on many tasks at once."""
        return TaskWatch(self.content.propertyCollector, self.config.max_wait_seconds)

    def run_tasks(self, tasks: list[tuple[object, str]]) -> list[TaskDone]:
        """Wait for all tasks; raise the first failure after every task finished."""
        with self.watch() as watch:
            watch.add(tasks)
            outcomes = watch.wait_all()
        failed = [o.error for o in outcomes if not o.ok]
        if failed:
            raise failed[0]
        return outcomes

    def wait(self, task, step: str):
        """Wait for one task and return its result."""
        return self.run_tasks([(task, step)])[0].result

    # -- reading

    def datacenter(self, name: str):
        """Datacenter by inventory path, cached for this session."""
        if name not in self._datacenters:
            with guarded(f"find datacenter {name}"):
                found = self.content.searchIndex.FindByInventoryPath(name)
            if not isinstance(found, vim.Datacenter):
                raise PermanentError(f"datacenter {name!r} not found", fault="NotFound")
            self._datacenters[name] = found
        return self._datacenters[name]

    def snapshot(self, datacenter: str) -> Snapshot:
        """Read VMs, switches, port groups, hosts, clusters and datastores in one call."""
        dc = self.datacenter(datacenter)
        contents = self._retrieve_view(dc)
        snap = Snapshot(datacenter=dc, vm_folder=None, network_folder=None)
        by_type: dict[type, list] = {}
        for content in contents:
            props = {p.name: p.val for p in content.propSet or []}
            if isinstance(content.obj, vim.Datacenter):
                snap.vm_folder, snap.network_folder = props["vmFolder"], props["networkFolder"]
                continue
            by_type.setdefault(type(content.obj), []).append((content.obj, props))
        self._fill_inventory(snap, by_type)
        self._fill_network(snap, by_type)
        host_names = {mor._moId: name for name, mor in snap.hosts.items()}
        pg_names = {pg.key: name for name, (pg, _mor) in snap.portgroups.items()}
        for mor, props in by_type.get(vim.VirtualMachine, []):
            vm = _parse_vm(mor._moId, props, host_names, pg_names)
            snap.vms[vm.name] = (vm, mor)
        return snap

    def portgroup_info(self, datacenter: str, name: str) -> tuple[str, str]:
        """(key, switch uuid) of one port group, read without the whole inventory (a just-created one)."""
        types = {vim.dvs.DistributedVirtualPortgroup: ["name", "key", "config.distributedVirtualSwitch"],
                 vim.DistributedVirtualSwitch: ["uuid"]}  # fmt: skip
        found = {content.obj._moId: {p.name: p.val for p in content.propSet or []}
                 for content in self._retrieve_view(self.datacenter(datacenter), types)}  # fmt: skip
        for props in found.values():
            switch = props.get("config.distributedVirtualSwitch")
            if props.get("name") == name and switch is not None:
                return props["key"], found.get(switch._moId, {}).get("uuid", "")
        raise PermanentError(f"port group {name!r} not found", fault="NotFound")

    def _retrieve_view(self, dc, types: dict | None = None) -> list:
        pc = vmodl.query.PropertyCollector
        types = SNAPSHOT_TYPES if types is None else types
        with guarded("read inventory"):
            view = self.content.viewManager.CreateContainerView(dc, list(types), True)
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
                collector = self.content.propertyCollector
                result = collector.RetrievePropertiesEx([spec], pc.RetrieveOptions())
                objects = list(result.objects) if result else []
                while result is not None and result.token:
                    result = collector.ContinueRetrievePropertiesEx(result.token)
                    objects += list(result.objects)
                return objects
            finally:
                view.DestroyView()

    @staticmethod
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

    @staticmethod
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

    # -- task starters: each sends one request and returns the vim.Task to wait on

    def start_create_dvs(self, snap: Snapshot, name: str, marker: str, mtu: int):
        """CreateDVS_Task in the datacenter's network folder."""
        with guarded(f"create switch {name}"):
            return snap.network_folder.CreateDVS_Task(dvs_create_spec(name, marker, mtu))

    def dvs_config_version(self, dvs) -> str:
        """Current configVersion of a switch (needed by every reconfigure)."""
        with guarded("read switch version"):
            return dvs.config.configVersion or ""

    def start_add_dvs_hosts(self, dvs, version: str, hosts: list, pnic: str):
        """Add hosts to a switch; the simulator ignores members given at create time."""
        with guarded("add hosts to switch"):
            return dvs.ReconfigureDvs_Task(dvs_hosts_spec(version, hosts, pnic))

    def start_set_dvs_mtu(self, dvs, version: str, mtu: int):
        """Change the switch MTU (real vCenter applies it; the simulator ignores it)."""
        with guarded("set switch MTU"):
            return dvs.ReconfigureDvs_Task(dvs_mtu_spec(version, mtu))

    def start_create_portgroup(self, dvs, name: str, marker: str, vlan: int, ports: int = 16, rules=None):
        """AddDVPortgroup_Task with the segment's VLAN and its traffic filter."""
        with guarded(f"create port group {name}"):
            return dvs.AddDVPortgroup_Task([portgroup_spec(name, marker, vlan, ports, rules=rules)])

    def start_set_portgroup_vlan(self, pg, name: str, marker: str, vlan: int, version: str, rules=None, ports=16):
        """Reconfigure a port group's VLAN and filter, restating the whole spec (vCenter replaces it)."""
        with guarded(f"configure port group {name}"):
            return pg.ReconfigureDVPortgroup_Task(portgroup_spec(name, marker, vlan, ports or 16, version, rules))

    def start_clone(
        self, snap: Snapshot, template: str, cluster: str, node: NodeIntent, datastore=None,
        devices: list | None = None, customization=None,
    ):  # fmt: skip
        """CloneVM_Task onto the node's host: marker, NIC changes and guest customization in the spec."""
        template_vm = self._template(snap, template)
        pool = snap.clusters.get(cluster, (None, []))[0]
        host = snap.hosts.get(node.host)
        if pool is None or host is None:
            raise PermanentError(f"{node.name}: cluster {cluster!r} or host {node.host!r} not found")
        relocate = vim.vm.RelocateSpec(pool=pool, host=host)
        if datastore:
            relocate.datastore = snap.datastores[datastore]
        spec = vim.vm.CloneSpec(
            location=relocate,
            powerOn=False,
            template=False,
            config=vm_config_spec(node, devices, marker=True),
            customization=customization,
        )
        with guarded(f"clone {node.name}"):
            return template_vm.CloneVM_Task(folder=snap.vm_folder, name=node.name, spec=spec)

    @staticmethod
    def _template(snap: Snapshot, name: str):
        found = snap.vms.get(name)
        if found is None or not found[0].template:
            raise PermanentError(f"template {name!r} not found", fault="NotFound")
        return found[1]

    def start_reconfigure(self, vm, spec, name: str):
        """ReconfigVM_Task with a prepared config spec."""
        with guarded(f"reconfigure {name}"):
            return vm.ReconfigVM_Task(spec)

    def start_customize(self, vm, spec, name: str):
        """CustomizeVM_Task: the guest applies host name and addresses at its next power-on."""
        with guarded(f"customize {name}"):
            return vm.CustomizeVM_Task(spec)

    @staticmethod
    def customization(node: NodeIntent, guest, nic_ips: list[tuple[str, bool]]):
        """Customization spec for one node (Linux identity, one adapter mapping per NIC)."""
        return customization_spec(node.host_name, guest, nic_ips)

    def start_power(self, vm, on: bool, name: str):
        """Power a VM on or off."""
        with guarded(f"power {'on' if on else 'off'} {name}"):
            return vm.PowerOnVM_Task() if on else vm.PowerOffVM_Task()

    def start_destroy(self, obj, name: str):
        """Destroy_Task of a VM, port group or switch."""
        with guarded(f"destroy {name}"):
            return obj.Destroy_Task()

    def config_target_sriov(self, datacenter: str, cluster: str, host: str) -> list[dict]:
        """SR-IOV PFs a host offers to VMs, as QueryConfigTarget reports them."""
        snap = self.snapshot(datacenter)
        with guarded(f"query config target of {host}"):
            cluster_mor = self._cluster_mor(snap, cluster)
            target = cluster_mor.environmentBrowser.QueryConfigTarget(host=snap.hosts[host])
        return [
            {"pci_id": info.pciDevice.id, "pnic": info.pnic, "system_id": info.systemId}
            for info in target.sriov or []
            if not info.virtualFunction
        ]

    @staticmethod
    def _cluster_mor(snap: Snapshot, cluster: str):
        pool = snap.clusters[cluster][0]
        return pool.owner

    # -- spec helpers for verbs and the batch path (keep vim objects inside this module)

    @staticmethod
    def vm_spec(node: NodeIntent, devices: list | None = None, marker: bool = False):
        """Config spec with the node's hardware settings and optional device changes."""
        return vm_config_spec(node, devices, marker)

    @staticmethod
    def nic_change_spec(devices: list):
        """Config spec with only device changes."""
        return vim.vm.ConfigSpec(deviceChange=devices)

    @staticmethod
    def nic_add(pf: PhysicalFunction, pg_key: str, switch_uuid: str, temp_key: int):
        """Device change adding one SR-IOV adapter."""
        return sriov_nic_spec(pf, pg_key, switch_uuid, temp_key)

    @staticmethod
    def nic_remove(key: int):
        """Device change removing one network adapter."""
        return remove_nic_spec(key)

    @staticmethod
    def adapter_add(adapter, temp_key: int, pg_key: str, switch_uuid: str, uptv2: bool = False):
        """Device change adding a VMXNET3/E1000e adapter on a distributed port group (UPTv2 on a VMXNET3)."""
        return adapter_spec(adapter, temp_key, pg_key, switch_uuid, uptv2=uptv2)

    @staticmethod
    def network_adapter_add(snap: Snapshot, adapter, temp_key: int, network: str):
        """Device change adding an adapter on a named network (a standard network or a port group)."""
        if network in snap.portgroups:
            pg = snap.portgroups[network][0]
            return adapter_spec(adapter, temp_key, pg.key, pg.switch_uuid)
        if network not in snap.networks:
            raise PermanentError(f"network {network!r} not found", fault="NotFound")
        return adapter_spec(adapter, temp_key, network=snap.networks[network])

    @staticmethod
    def task_id(task) -> str:
        """Stable id of a task within this session (for matching watch outcomes)."""
        return task._moId
