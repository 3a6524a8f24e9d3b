"""The vCenter side of NSX on a vSphere 7+ VDS: segment port groups, and the VM inventory (pyvmomi)."""

from __future__ import annotations

import contextlib
import ssl
import threading
from dataclasses import dataclass

from pyVim.connect import Disconnect, SmartConnect
from pyVim.task import WaitForTask
from pyVmomi import vim, vmodl

PG_PROPS = ["name", "config.logicalSwitchUuid", "config.segmentId", "config.backingType", "vm"]
VM_PROPS = [
    "name",
    "config.instanceUuid",
    "config.template",
    "runtime.powerState",
    "runtime.host",
    "guest.net",
    "network",
]
POWER = {"poweredOn": "VM_RUNNING", "poweredOff": "VM_STOPPED", "suspended": "VM_SUSPENDED"}


@dataclass(frozen=True)
class VCenterConfig:
    """Where the vCenter (simulator) is and which switch carries the segments."""

    host: str
    port: int
    user: str
    password: str
    ca_file: str
    datacenter: str
    dvs: str


@dataclass(frozen=True)
class VM:
    """One VM as NSX's inventory sees it."""

    external_id: str
    name: str
    moid: str
    power_state: str
    host: str
    ips: tuple[str, ...]
    networks: tuple[str, ...]


class VCenter:
    """A lazily connected pyvmomi session; one call at a time."""

    def __init__(self, config: VCenterConfig):
        self.config = config
        self.lock = threading.Lock()
        self._si = None

    def _content(self):
        """The service content, connecting (again) when needed."""
        if self._si is None:
            cfg = self.config
            context = ssl.create_default_context(cafile=cfg.ca_file)
            self._si = SmartConnect(host=cfg.host, port=cfg.port, user=cfg.user, pwd=cfg.password, sslContext=context)
        return self._si.RetrieveContent()

    def close(self) -> None:
        """Log out."""
        with self.lock:
            if self._si is not None:
                with contextlib.suppress(Exception):
                    Disconnect(self._si)
                self._si = None

    def _call(self, fn, *args):
        """Run fn under the lock; a dropped session is re-established once."""
        with self.lock:
            try:
                return fn(self._content(), *args)
            except (vim.fault.NotAuthenticated, ConnectionError, OSError):
                self._si = None
                return fn(self._content(), *args)

    def _datacenter(self, content):
        """The configured datacenter."""
        found = content.searchIndex.FindByInventoryPath(self.config.datacenter)
        if not isinstance(found, vim.Datacenter):
            raise LookupError(f"datacenter {self.config.datacenter!r} not found in vCenter")
        return found

    def _collect(self, content, kind, props: list[str]) -> list[tuple[object, dict]]:
        """(object, properties) for every object of a type in the datacenter, in one round trip."""
        pc = vmodl.query.PropertyCollector
        view = content.viewManager.CreateContainerView(self._datacenter(content), [kind], True)
        try:
            spec = pc.FilterSpec(
                objectSet=[pc.ObjectSpec(obj=view, skip=True, selectSet=[pc.TraversalSpec(
                    name="view", path="view", skip=False, type=vim.view.ContainerView)])],
                propSet=[pc.PropertySpec(type=kind, pathSet=props)],
            )  # fmt: skip
            found = content.propertyCollector.RetrieveContents([spec])
        finally:
            view.Destroy()
        return [(c.obj, {p.name: p.val for p in c.propSet or []}) for c in found]

    def _portgroup(self, content, switch_uuid: str):
        """(port group, properties) backing the segment with this logical switch UUID, or (None, {})."""
        for obj, props in self._collect(content, vim.dvs.DistributedVirtualPortgroup, PG_PROPS):
            if props.get("config.logicalSwitchUuid") == switch_uuid:
                return obj, props
        return None, {}

    def _switch(self, content):
        """The configured distributed switch."""
        for obj, props in self._collect(content, vim.DistributedVirtualSwitch, ["name"]):
            if props.get("name") == self.config.dvs:
                return obj
        raise LookupError(f"distributed switch {self.config.dvs!r} not found in {self.config.datacenter}")

    def ensure_portgroup(self, name: str, switch_uuid: str, segment_path: str) -> str:
        """The segment's NSX-backed port group exists under its display name; returns what was done."""
        return self._call(self._ensure, name, switch_uuid, segment_path)

    def _ensure(self, content, name: str, switch_uuid: str, segment_path: str) -> str:
        pg, props = self._portgroup(content, switch_uuid)
        if pg is not None and props.get("name") == name:
            return "unchanged"
        if pg is not None:  # a rename only: a reconfigure would have to restate the whole config
            WaitForTask(pg.Rename_Task(name))
            return "renamed"
        spec = vim.dvs.DistributedVirtualPortgroup.ConfigSpec(
            name=name,
            type="earlyBinding",
            numPorts=8,
            autoExpand=True,
            description=f"NSX segment {segment_path}",
            backingType="nsx",
            logicalSwitchUuid=switch_uuid,
            segmentId=segment_path,
        )
        WaitForTask(self._switch(content).AddDVPortgroup_Task([spec]))
        return "created"

    def remove_portgroup(self, switch_uuid: str) -> bool:
        """Remove the segment's port group (False: there was none)."""
        return self._call(self._remove, switch_uuid)

    def _remove(self, content, switch_uuid: str) -> bool:
        pg, _props = self._portgroup(content, switch_uuid)
        if pg is None:
            return False
        WaitForTask(pg.Destroy_Task())
        return True

    def vms_on(self, switch_uuid: str) -> list[str]:
        """Names of the VMs attached to the segment's port group."""
        return self._call(self._vms_on, switch_uuid)

    def _vms_on(self, content, switch_uuid: str) -> list[str]:
        pg, props = self._portgroup(content, switch_uuid)
        if pg is None:
            return []
        names = {vm.name for vm in props.get("vm") or []}  # vCenter's view; the simulator leaves it empty
        for _vm, vm_props in self._collect(content, vim.VirtualMachine, ["name", "network"]):
            if any(net._moId == pg._moId for net in vm_props.get("network") or []):
                names.add(vm_props.get("name", ""))
        return sorted(names)

    def vms(self) -> list[VM]:
        """Every VM (templates excluded), as NSX's inventory lists them."""
        return self._call(self._vms)

    def _vms(self, content) -> list[VM]:
        hosts = {h._moId: p.get("name", "") for h, p in self._collect(content, vim.HostSystem, ["name"])}
        pgs = {g._moId: p for g, p in self._collect(content, vim.dvs.DistributedVirtualPortgroup, PG_PROPS)}
        found = []
        for obj, props in self._collect(content, vim.VirtualMachine, VM_PROPS):
            if props.get("config.template") or not props.get("config.instanceUuid"):
                continue
            ips = [ip for nic in props.get("guest.net") or [] for ip in nic.ipAddress or []]
            nets = [pgs.get(n._moId, {}).get("config.logicalSwitchUuid") or "" for n in props.get("network") or []]
            host = props.get("runtime.host")
            found.append(VM(
                external_id=props["config.instanceUuid"], name=props.get("name", ""), moid=obj._moId,
                power_state=POWER.get(str(props.get("runtime.powerState")), "UNKNOWN"),
                host=hosts.get(host._moId, "") if host is not None else "",
                ips=tuple(ips), networks=tuple(n for n in nets if n),
            ))  # fmt: skip
        return sorted(found, key=lambda vm: vm.name)
