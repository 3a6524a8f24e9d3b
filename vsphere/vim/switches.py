"""The distributed switch: its task starters and its idempotent ensure/remove verbs."""

from __future__ import annotations

from vsphere.errors import PreflightError
from vsphere.plan.specs import HPC_MTU
from vsphere.vim.faults import guarded, require_marker
from vsphere.vim.specs import dvs_create_spec, dvs_hosts_spec, dvs_mtu_spec


class Switches:
    """Distributed switches, through the driver's session (reads and waiting)."""

    def __init__(self, driver):
        self._driver = driver

    def start_create(self, snap, name: str, marker: str, mtu: int):
        """CreateDVS_Task in the datacenter's network folder."""
        with guarded(f"create switch {name}"):
            return snap.network_folder.CreateDVS_Task(dvs_create_spec(name, marker, mtu))

    @staticmethod
    def config_version(dvs) -> str:
        """Current configVersion of a switch (needed by every reconfigure)."""
        with guarded("read switch version"):
            return dvs.config.configVersion or ""

    @staticmethod
    def start_add_hosts(dvs, version: str, hosts: list, pnic: str):
        """Add hosts to a switch; the simulator ignores members given at create time."""
        with guarded("add hosts to switch"):
            return dvs.ReconfigureDvs_Task(dvs_hosts_spec(version, hosts, pnic))

    @staticmethod
    def start_set_mtu(dvs, version: str, mtu: int):
        """Change the switch MTU (real vCenter applies it; the simulator ignores it)."""
        with guarded("set switch MTU"):
            return dvs.ReconfigureDvs_Task(dvs_mtu_spec(version, mtu))

    def ensure(self, datacenter, name, marker, hosts, uplink_pnic, mtu=HPC_MTU) -> bool:
        """Switch with MTU set at create, then hosts added with the PF's vmnic as uplink."""
        drv = self._driver
        snap = drv.snapshot(datacenter)
        unknown = [h for h in hosts if h not in snap.hosts]
        if unknown:
            raise PreflightError([f"unknown hosts: {', '.join(unknown)}"])
        changed = False
        found = snap.switches.get(name)
        if found is None:
            dvs_mor = drv.wait(self.start_create(snap, name, marker, mtu), f"create {name}")
            have, version, changed = (), self.config_version(dvs_mor), True
        else:
            dvs, dvs_mor = found
            require_marker("switch", name, dvs.marker, marker)
            have, version = dvs.hosts, snap.dvs_config_version[name]
            if dvs.mtu != mtu:
                drv.wait(self.start_set_mtu(dvs_mor, version, mtu), f"MTU of {name}")
                version, changed = self.config_version(dvs_mor), True
        missing = [snap.hosts[h] for h in hosts if h not in have]
        if missing:
            drv.wait(self.start_add_hosts(dvs_mor, version, missing, uplink_pnic), "add hosts")
            changed = True
        return changed

    def remove(self, datacenter, name, marker) -> bool:
        """Delete a switch of ours once no VM NIC is attached to it."""
        drv = self._driver
        snap = drv.snapshot(datacenter)
        if name not in snap.switches:
            return False
        dvs, dvs_mor = snap.switches[name]
        require_marker("switch", name, dvs.marker, marker)
        users = sorted(vm.name for vm, _ in snap.vms.values() if any(nic.switch_uuid == dvs.uuid for nic in vm.nics))
        users += sorted(pg.name for pg, _ in snap.portgroups.values() if pg.switch_uuid == dvs.uuid and pg.marker)
        if users:
            # Remove port groups first: the simulator would leave them dangling and crash later.
            raise PreflightError([f"switch {name} is still used by {', '.join(users)}"])
        drv.wait(drv.start_destroy(dvs_mor, name), f"remove switch {name}")
        return True
