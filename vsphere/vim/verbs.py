"""Idempotent ensure/remove verbs, built only on the driver's reads and task starters."""

from __future__ import annotations

from vsphere.errors import MarkerMismatchError, PermanentError, PreflightError
from vsphere.plan import preflight
from vsphere.plan.specs import (
    HPC_MTU,
    ClusterIntent,
    NodeIntent,
    Observed,
    ObservedVM,
    PowerState,
)


def require_marker(kind: str, name: str, found: str, expected: str) -> None:
    """Refuse to touch an object whose marker is not ours."""
    if found != expected:
        owner = repr(found) if found else "no marker"
        raise MarkerMismatchError(
            f"{kind} {name!r} exists with {owner}, expected {expected!r}; refusing to touch it",
            fault="MarkerMismatch",
        )


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


def hardware_differs(node: NodeIntent, vm: ObservedVM) -> bool:
    """Whether vCPU, memory, reservation or latency sensitivity need a reconfigure."""
    return (vm.cpus, vm.memory_mb, vm.reservation_locked, vm.latency_high) != (
        node.cpus,
        node.memory_mb,
        node.full_reservation,
        node.latency_high,
    )


class VerbsMixin:
    """Single-object verbs; each returns True when it changed something."""

    def observe(self, intent: ClusterIntent) -> Observed:
        """Read-only view of what vCenter has for a cluster intent."""
        return observed_from(self.snapshot(intent.datacenter), intent)

    def ensure_dvs(self, datacenter, name, marker, hosts, uplink_pnic, mtu=HPC_MTU) -> bool:
        """Switch with MTU set at create, then hosts added with the PF's vmnic as uplink."""
        snap = self.snapshot(datacenter)
        unknown = [h for h in hosts if h not in snap.hosts]
        if unknown:
            raise PreflightError([f"unknown hosts: {', '.join(unknown)}"])
        changed = False
        found = snap.switches.get(name)
        if found is None:
            dvs_mor = self.wait(self.start_create_dvs(snap, name, marker, mtu), f"create {name}")
            have, version, changed = (), self.dvs_config_version(dvs_mor), True
        else:
            dvs, dvs_mor = found
            require_marker("switch", name, dvs.marker, marker)
            have, version = dvs.hosts, snap.dvs_config_version[name]
            if dvs.mtu != mtu:
                self.wait(self.start_set_dvs_mtu(dvs_mor, version, mtu), f"MTU of {name}")
                version, changed = self.dvs_config_version(dvs_mor), True
        missing = [snap.hosts[h] for h in hosts if h not in have]
        if missing:
            self.wait(self.start_add_dvs_hosts(dvs_mor, version, missing, uplink_pnic), "add hosts")
            changed = True
        return changed

    def ensure_portgroup(self, datacenter, dvs_name, name, marker, vlan) -> bool:
        """Port group on the switch with the segment's VLAN."""
        if not 1 <= vlan <= 4094:
            raise PreflightError([f"VLAN {vlan} is outside 1..4094"])
        snap = self.snapshot(datacenter)
        found = snap.portgroups.get(name)
        if found is None:
            if dvs_name not in snap.switches:
                raise PermanentError(f"switch {dvs_name!r} not found", fault="NotFound")
            dvs_mor = snap.switches[dvs_name][1]
            self.wait(self.start_create_portgroup(dvs_mor, name, marker, vlan), f"create {name}")
            return True
        pg, pg_mor = found
        require_marker("port group", name, pg.marker, marker)
        if pg.vlan == vlan:
            return False
        version = snap.pg_config_version[name]
        self.wait(self.start_set_portgroup_vlan(pg_mor, name, marker, vlan, version), "set VLAN")
        return True

    def ensure_vm(self, datacenter, cluster, template, node: NodeIntent, datastore=None, adopt=False) -> bool:
        """VM cloned from the template with the node's vCPU, memory, reservation, latency.

        `adopt`: the caller's journal shows Enclave started this clone, so an unmarked VM of
        that name is ours (a worker died between clone and marker on the simulator)."""
        snap = self.snapshot(datacenter)
        found = snap.vms.get(node.name)
        if found is not None and adopt and not found[0].marker:
            spec = self.vm_spec(node, marker=True)
            self.wait(self.start_reconfigure(found[1], spec, node.name), f"adopt {node.name}")
            return True
        if found is None:
            task = self.start_clone(snap, template, cluster, node, datastore)
            vm_mor = self.wait(task, f"clone {node.name}")
            # The simulator drops the clone spec's config (marker included): restate it.
            spec = self.vm_spec(node, marker=True)
            self.wait(self.start_reconfigure(vm_mor, spec, node.name), f"configure {node.name}")
            return True
        vm, vm_mor = found
        require_marker("VM", node.name, vm.marker, node.marker)
        if not hardware_differs(node, vm):
            return False
        if vm.power != PowerState.OFF and (vm.cpus, vm.memory_mb) != (node.cpus, node.memory_mb):
            raise PreflightError([f"{node.name}: power the VM off before changing vCPU or memory"])
        self.wait(self.start_reconfigure(vm_mor, self.vm_spec(node), node.name), "reconfigure")
        return True

    def ensure_sriov_nic(self, datacenter, vm_name, marker, portgroup, pf_id, inventory=None) -> bool:
        """One SR-IOV adapter on the port group naming the PF; only while powered off."""
        snap = self.snapshot(datacenter)
        vm, vm_mor = self._owned_vm(snap, vm_name, marker)
        if portgroup not in snap.portgroups:
            raise PermanentError(f"port group {portgroup!r} not found", fault="NotFound")
        pg = snap.portgroups[portgroup][0]
        if any(nic.pf == pf_id and nic.portgroup_key == pg.key for nic in vm.sriov_nics):
            return False
        inventory = inventory if inventory is not None else snap.pfs
        in_use = sum(
            1 for other, _ in snap.vms.values() if other.host == vm.host for nic in other.sriov_nics if nic.pf == pf_id
        )
        preflight.check_pf(vm.host, pf_id, inventory, in_use)
        preflight.check_sriov_add(vm.name, vm.power, vm.reservation_locked)
        pf = inventory[vm.host][pf_id]
        spec = self.nic_change_spec([self.nic_add(pf, pg.key, pg.switch_uuid, -100)])
        self.wait(self.start_reconfigure(vm_mor, spec, vm_name), f"add SR-IOV NIC to {vm_name}")
        return True

    def remove_sriov_nic(self, datacenter, vm_name, marker, pf_id) -> bool:
        """Remove the VM's SR-IOV adapters on that PF; only while powered off."""
        snap = self.snapshot(datacenter)
        vm, vm_mor = self._owned_vm(snap, vm_name, marker)
        keys = [nic.key for nic in vm.sriov_nics if nic.pf == pf_id]
        if not keys:
            return False
        if vm.power != PowerState.OFF:
            raise PreflightError([f"{vm_name}: power the VM off before removing SR-IOV NICs"])
        spec = self.nic_change_spec([self.nic_remove(key) for key in keys])
        self.wait(self.start_reconfigure(vm_mor, spec, vm_name), f"remove NIC from {vm_name}")
        return True

    def ensure_power(self, datacenter, vm_name, marker, on: bool) -> bool:
        """Power state on or off."""
        snap = self.snapshot(datacenter)
        vm, vm_mor = self._owned_vm(snap, vm_name, marker)
        if (vm.power == PowerState.ON) == on:
            return False
        self.wait(self.start_power(vm_mor, on, vm_name), f"power {vm_name}")
        return True

    def destroy_vm(self, datacenter, vm_name, marker) -> bool:
        """Power off and delete a VM of ours (its VFs are released with it)."""
        snap = self.snapshot(datacenter)
        if vm_name not in snap.vms:
            return False
        vm, vm_mor = self._owned_vm(snap, vm_name, marker)
        if vm.power != PowerState.OFF:
            self.wait(self.start_power(vm_mor, False, vm_name), f"power off {vm_name}")
        self.wait(self.start_destroy(vm_mor, vm_name), f"destroy {vm_name}")
        return True

    def remove_portgroup(self, datacenter, name, marker) -> bool:
        """Delete a port group of ours once no VM uses it."""
        snap = self.snapshot(datacenter)
        if name not in snap.portgroups:
            return False
        pg, pg_mor = snap.portgroups[name]
        require_marker("port group", name, pg.marker, marker)
        users = sorted(vm.name for vm, _ in snap.vms.values() if any(nic.portgroup_key == pg.key for nic in vm.nics))
        if users:
            raise PreflightError([f"port group {name} is still used by {', '.join(users)}"])
        self.wait(self.start_destroy(pg_mor, name), f"remove port group {name}")
        return True

    def remove_dvs(self, datacenter, name, marker) -> bool:
        """Delete a switch of ours once no VM NIC is attached to it."""
        snap = self.snapshot(datacenter)
        if name not in snap.switches:
            return False
        dvs, dvs_mor = snap.switches[name]
        require_marker("switch", name, dvs.marker, marker)
        users = sorted(vm.name for vm, _ in snap.vms.values() if any(nic.switch_uuid == dvs.uuid for nic in vm.nics))
        users += sorted(pg.name for pg, _ in snap.portgroups.values() if pg.switch_uuid == dvs.uuid and pg.marker)
        if users:
            # Remove port groups first: the simulator would leave them dangling and crash later.
            raise PreflightError([f"switch {name} is still used by {', '.join(users)}"])
        self.wait(self.start_destroy(dvs_mor, name), f"remove switch {name}")
        return True

    @staticmethod
    def _owned_vm(snap, vm_name: str, marker: str):
        if vm_name not in snap.vms:
            raise PermanentError(f"VM {vm_name!r} not found", fault="NotFound")
        vm, vm_mor = snap.vms[vm_name]
        require_marker("VM", vm_name, vm.marker, marker)
        return vm, vm_mor
