"""A cluster's VMs: clone, reconfigure, customize, power, move, and the idempotent ensure verbs."""

from __future__ import annotations

from pyVmomi import vim

from vsphere.errors import PermanentError, PreflightError
from vsphere.plan.specs import NodeIntent, ObservedVM, PowerState
from vsphere.vim.faults import guarded, require_marker
from vsphere.vim.specs import customization_spec, vm_config_spec


def hardware_differs(node: NodeIntent, vm: ObservedVM) -> bool:
    """Whether vCPU, memory, reservation or latency sensitivity need a reconfigure."""
    return (vm.cpus, vm.memory_mb, vm.reservation_locked, vm.latency_high) != (
        node.cpus,
        node.memory_mb,
        node.full_reservation,
        node.latency_high,
    )


class Vms:
    """Virtual machines, through the driver's session (reads and waiting)."""

    def __init__(self, driver):
        self._driver = driver

    # -- task starters: each sends one request and returns the vim.Task to wait on

    def start_clone(
        self, snap, template: str, cluster: str, node: NodeIntent, datastore=None,
        devices: list | None = None, customization=None,
    ):  # fmt: skip
        """CloneVM_Task onto the node's host: marker, NIC changes and guest customization in the spec."""
        template_vm = _template(snap, template)
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
    def start_reconfigure(vm, spec, name: str):
        """ReconfigVM_Task with a prepared config spec."""
        with guarded(f"reconfigure {name}"):
            return vm.ReconfigVM_Task(spec)

    @staticmethod
    def start_customize(vm, spec, name: str):
        """CustomizeVM_Task: the guest applies host name and addresses at its next power-on."""
        with guarded(f"customize {name}"):
            return vm.CustomizeVM_Task(spec)

    @staticmethod
    def start_power(vm, on: bool, name: str):
        """Power a VM on or off."""
        with guarded(f"power {'on' if on else 'off'} {name}"):
            return vm.PowerOnVM_Task() if on else vm.PowerOffVM_Task()

    @staticmethod
    def start_relocate(snap, vm, cluster: str, host: str, name: str):
        """RelocateVM_Task of a powered-off VM onto the host its devices and features are on."""
        pool = snap.clusters.get(cluster, (None, []))[0]
        if pool is None or host not in snap.hosts:
            raise PermanentError(f"{name}: cluster {cluster!r} or host {host!r} not found", fault="NotFound")
        with guarded(f"move {name} to {host}"):
            return vm.RelocateVM_Task(vim.vm.RelocateSpec(host=snap.hosts[host], pool=pool))

    # -- specs (keep vim objects inside vim/)

    @staticmethod
    def spec(node: NodeIntent, devices: list | None = None, marker: bool = False):
        """Config spec with the node's hardware settings and optional device changes."""
        return vm_config_spec(node, devices, marker)

    @staticmethod
    def customization(node: NodeIntent, guest, nic_ips: list[tuple[str, bool]]):
        """Customization spec for one node (Linux identity, one adapter mapping per NIC)."""
        return customization_spec(node.host_name, guest, nic_ips)

    # -- verbs: each returns True when it changed something

    def ensure(self, datacenter, cluster, template, node: NodeIntent, datastore=None, adopt=False) -> bool:
        """VM cloned from the template with the node's vCPU, memory, reservation, latency.

        `adopt`: the caller's journal shows Enclave started this clone, so an unmarked VM of
        that name is ours (a worker died between clone and marker on the simulator)."""
        drv = self._driver
        snap = drv.snapshot(datacenter)
        found = snap.vms.get(node.name)
        if found is not None and adopt and not found[0].marker:
            drv.wait(self.start_reconfigure(found[1], self.spec(node, marker=True), node.name), f"adopt {node.name}")
            return True
        if found is None:
            vm_mor = drv.wait(self.start_clone(snap, template, cluster, node, datastore), f"clone {node.name}")
            # The simulator drops the clone spec's config (marker included): restate it.
            spec = self.spec(node, marker=True)
            drv.wait(self.start_reconfigure(vm_mor, spec, node.name), f"configure {node.name}")
            return True
        vm, vm_mor = found
        require_marker("VM", node.name, vm.marker, node.marker)
        if not hardware_differs(node, vm):
            return False
        if vm.power != PowerState.OFF and (vm.cpus, vm.memory_mb) != (node.cpus, node.memory_mb):
            raise PreflightError([f"{node.name}: power the VM off before changing vCPU or memory"])
        drv.wait(self.start_reconfigure(vm_mor, self.spec(node), node.name), "reconfigure")
        return True

    def ensure_power(self, datacenter, vm_name, marker, on: bool) -> bool:
        """Power state on or off."""
        drv = self._driver
        vm, vm_mor = drv.snapshot(datacenter).owned_vm(vm_name, marker)
        if (vm.power == PowerState.ON) == on:
            return False
        drv.wait(self.start_power(vm_mor, on, vm_name), f"power {vm_name}")
        return True

    def destroy(self, datacenter, vm_name, marker) -> bool:
        """Power off and delete a VM of ours (its VFs are released with it)."""
        drv = self._driver
        snap = drv.snapshot(datacenter)
        if vm_name not in snap.vms:
            return False
        vm, vm_mor = snap.owned_vm(vm_name, marker)
        if vm.power != PowerState.OFF:
            drv.wait(self.start_power(vm_mor, False, vm_name), f"power off {vm_name}")
        drv.wait(drv.start_destroy(vm_mor, vm_name), f"destroy {vm_name}")
        return True


def _template(snap, name: str):
    found = snap.vms.get(name)
    if found is None or not found[0].template:
        raise PermanentError(f"template {name!r} not found", fault="NotFound")
    return found[1]
