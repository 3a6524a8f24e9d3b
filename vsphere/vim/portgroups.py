"""Distributed port groups: task starters (VLAN and traffic filter in one spec), a light read, ensure/remove."""

from __future__ import annotations

from pyVmomi import vim

from vsphere.errors import PermanentError, PreflightError
from vsphere.vim.faults import guarded, require_marker
from vsphere.vim.snapshot import retrieve_view
from vsphere.vim.specs import portgroup_spec


class Portgroups:
    """Distributed port groups, through the driver's session (reads and waiting)."""

    def __init__(self, driver):
        self._driver = driver

    @staticmethod
    def start_create(dvs, name: str, marker: str, vlan: int, ports: int = 16, rules=None):
        """AddDVPortgroup_Task with the segment's VLAN and its traffic filter."""
        with guarded(f"create port group {name}"):
            return dvs.AddDVPortgroup_Task([portgroup_spec(name, marker, vlan, ports, rules=rules)])

    @staticmethod
    def start_configure(pg, name: str, marker: str, vlan: int, version: str, rules=None, ports=16):
        """Reconfigure a port group's VLAN and filter, restating the whole spec (vCenter replaces it)."""
        with guarded(f"configure port group {name}"):
            return pg.ReconfigureDVPortgroup_Task(portgroup_spec(name, marker, vlan, ports or 16, version, rules))

    def info(self, datacenter: str, name: str) -> tuple[str, str]:
        """(key, switch uuid) of one port group, read without the whole inventory (a just-created one)."""
        drv = self._driver
        types = {vim.dvs.DistributedVirtualPortgroup: ["name", "key", "config.distributedVirtualSwitch"],
                 vim.DistributedVirtualSwitch: ["uuid"]}  # fmt: skip
        found = {content.obj._moId: {p.name: p.val for p in content.propSet or []}
                 for content in retrieve_view(drv.content, drv.datacenter(datacenter), types)}  # fmt: skip
        for props in found.values():
            switch = props.get("config.distributedVirtualSwitch")
            if props.get("name") == name and switch is not None:
                return props["key"], found.get(switch._moId, {}).get("uuid", "")
        raise PermanentError(f"port group {name!r} not found", fault="NotFound")

    def ensure(self, datacenter, dvs_name, name, marker, vlan) -> bool:
        """Port group on the switch with the segment's VLAN."""
        if not 1 <= vlan <= 4094:
            raise PreflightError([f"VLAN {vlan} is outside 1..4094"])
        drv = self._driver
        snap = drv.snapshot(datacenter)
        found = snap.portgroups.get(name)
        if found is None:
            if dvs_name not in snap.switches:
                raise PermanentError(f"switch {dvs_name!r} not found", fault="NotFound")
            dvs_mor = snap.switches[dvs_name][1]
            drv.wait(self.start_create(dvs_mor, name, marker, vlan), f"create {name}")
            return True
        pg, pg_mor = found
        require_marker("port group", name, pg.marker, marker)
        if pg.vlan == vlan:
            return False
        version = snap.pg_config_version[name]
        drv.wait(self.start_configure(pg_mor, name, marker, vlan, version), "set VLAN")
        return True

    def remove(self, datacenter, name, marker) -> bool:
        """Delete a port group of ours once no VM uses it."""
        drv = self._driver
        snap = drv.snapshot(datacenter)
        if name not in snap.portgroups:
            return False
        pg, pg_mor = snap.portgroups[name]
        require_marker("port group", name, pg.marker, marker)
        users = sorted(vm.name for vm, _ in snap.vms.values() if any(nic.portgroup_key == pg.key for nic in vm.nics))
        if users:
            raise PreflightError([f"port group {name} is still used by {', '.join(users)}"])
        drv.wait(drv.start_destroy(pg_mor, name), f"remove port group {name}")
        return True
