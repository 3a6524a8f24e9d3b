"""Converge one cluster: observe, plan, preflight, then run the plan as one batch."""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass, replace

from vsphere.errors import MarkerMismatchError
from vsphere.plan import device_preflight, preflight
from vsphere.plan.changes import Change, ChangeKind
from vsphere.plan.diff import plan
from vsphere.plan.specs import ClusterIntent, NicRole, NodeIntent, Observed
from vsphere.reconcile.batch import BatchRunner, Op, StepCallback
from vsphere.vim.snapshot import observed_from

log = logging.getLogger(__name__)
NIC_KEY_BASE = -100  # temporary device keys for added NICs


@dataclass
class ConvergeResult:
    """What a converge run did."""

    changes: list[Change]
    observed: Observed


def preview(driver, intent: ClusterIntent, devices: device_preflight.DeviceInventory | None = None) -> list[Change]:
    """Dry run: the changes converge would make now (reads only); with `devices`, refused as converge would."""
    snap = driver.snapshot(intent.datacenter)
    observed = observed_from(snap, intent)
    if devices is not None:
        device_preflight.check_cluster(intent, [vm for vm, _mor in snap.vms.values()], set(observed.vms), devices)
    return plan(intent, observed)


def converge(
    driver,
    intent: ClusterIntent,
    inventory: preflight.PFInventory | None = None,
    adopt: frozenset[str] = frozenset(),
    on_step: StepCallback | None = None,
    devices: device_preflight.DeviceInventory | None = None,
) -> ConvergeResult:
    """Make vCenter match the intent; running it again changes nothing.

    `devices`: what each host offers beyond SR-IOV (the database's inventory); with it, the device
    preflight refuses what real vSphere would refuse before any change is sent.
    """
    if inventory is not None:
        preflight.check_cluster(intent, inventory)  # before any vSphere call
    snap = driver.snapshot(intent.datacenter)
    observed = observed_from(snap, intent)
    adopted = _adopt(intent, observed, adopt)
    changes = plan(intent, observed)
    _refuse_blocked(changes)
    preflight.check_cluster(intent, inventory if inventory is not None else snap.pfs, observed)
    if devices is not None:
        device_preflight.check_cluster(intent, [vm for vm, _mor in snap.vms.values()], set(observed.vms), devices)
    device_preflight.check_adds_while_off(changes, observed)
    if changes or adopted:
        ops = _Builder(driver, snap, intent, inventory or snap.pfs, adopted).build(changes)
        BatchRunner(driver, on_step).run(ops)
    return ConvergeResult(changes=changes, observed=observed)


def _refuse_blocked(changes: list[Change]) -> None:
    """Stop before any change when an object of ours by name belongs to something else."""
    blocked = [c for c in changes if c.kind == ChangeKind.BLOCKED]
    if blocked:
        # Whose they are goes to the worker's log (site admins) only: the error's text reaches the cluster's tenant.
        log.warning("refusing foreign objects: %s", "; ".join(f"{c.target} {c.data.get('marker')!r}" for c in blocked))
        raise MarkerMismatchError("; ".join(str(c) for c in blocked), fault="MarkerMismatch")


def _adopt(intent: ClusterIntent, observed: Observed, adopt: frozenset[str]) -> set[str]:
    """Unmarked VMs the caller's journal says Enclave cloned: treat as ours, re-mark them."""
    adopted = set()
    for node in intent.nodes:
        vm = observed.vm(node.name)
        if vm is not None and not vm.marker and node.name in adopt:
            observed.vms[node.name] = replace(vm, marker=node.marker)
            adopted.add(node.name)
    return adopted


class _Builder:
    """Turns planned changes into batch ops with their dependencies."""

    def __init__(self, driver, snap, intent: ClusterIntent, inventory, adopted: set[str]):
        self.d = driver
        self.snap = snap
        self.intent = intent
        self.inventory = inventory
        self.adopted = adopted
        self.ops: dict[str, Op] = {}

    def build(self, changes: list[Change]) -> list[Op]:
        by_node: dict[str, list[Change]] = defaultdict(list)
        for change in changes:
            if change.kind in NETWORK_KINDS:
                self._network(change)
            elif change.kind != ChangeKind.REMOVE_PORTGROUP:
                by_node[change.target].append(change)
        nodes = {node.name: node for node in self.intent.nodes}
        for name, node_changes in by_node.items():
            self._node(nodes.get(name), name, node_changes)
        for name in self.adopted - set(by_node):
            self._node(nodes[name], name, [])
        for change in changes:
            if change.kind == ChangeKind.REMOVE_PORTGROUP:
                self._remove_portgroup()
        return list(self.ops.values())

    def _add(self, key: str, step: str, start, after=()) -> None:
        self.ops[key] = Op(key, step, start, tuple(a for a in after if a in self.ops))

    # -- network

    def _dvs(self, results):
        return results.get("dvs") or self.snap.switches[self.intent.dvs_name][1]

    def _network(self, change: Change) -> None:
        i, d = self.intent, self.d
        if change.kind == ChangeKind.CREATE_DVS:
            create = lambda r: d.switches.start_create(self.snap, i.dvs_name, i.dvs_marker, i.mtu)  # noqa: E731
            self._add("dvs", str(change), create)
        elif change.kind == ChangeKind.SET_DVS_MTU:
            version = self.snap.dvs_config_version[i.dvs_name]
            set_mtu = lambda r: d.switches.start_set_mtu(self._dvs(r), version, i.mtu)  # noqa: E731
            self._add("dvs-mtu", str(change), set_mtu)
        elif change.kind == ChangeKind.ADD_DVS_HOSTS:
            hosts = [self.snap.hosts[h] for h in change.data["hosts"]]

            def add_hosts(r):
                dvs = self._dvs(r)
                return d.switches.start_add_hosts(dvs, d.switches.config_version(dvs), hosts, i.uplink_pnic)

            self._add("dvs-hosts", str(change), add_hosts, ("dvs", "dvs-mtu"))
        elif change.kind == ChangeKind.CREATE_PORTGROUP:
            start = lambda r: d.portgroups.start_create(  # noqa: E731
                self._dvs(r), i.portgroup, i.portgroup_marker, i.vlan, rules=i.filter_rules
            )
            self._add("pg", str(change), start, ("dvs",))
            self._add("pg-read", f"read port group {i.portgroup}", self._read_portgroup, ("pg",))
        elif change.kind in (ChangeKind.SET_PORTGROUP_VLAN, ChangeKind.SET_PORTGROUP_FILTER):
            self._configure_portgroup(change)

    def _configure_portgroup(self, change: Change) -> None:
        """VLAN and filter in one reconfigure: it restates the whole port config either way."""
        i, d = self.intent, self.d
        pg, pg_mor = self.snap.portgroups[i.portgroup]
        version = self.snap.pg_config_version[i.portgroup]
        rules = i.filter_rules if i.filter_rules is not None else pg.filter_rules
        start = lambda r: d.portgroups.start_configure(  # noqa: E731
            pg_mor, i.portgroup, i.portgroup_marker, i.vlan, version, rules, pg.num_ports
        )
        step = "; ".join(filter(None, [self.ops["pg-config"].step if "pg-config" in self.ops else "", str(change)]))
        self._add("pg-config", step, start)

    def _read_portgroup(self, results) -> None:
        results["pg-info"] = self.d.portgroups.info(self.intent.datacenter, self.intent.portgroup)
        return None

    def _pg_info(self, results) -> tuple[str, str]:
        if "pg-info" in results:
            return results["pg-info"]
        pg = self.snap.portgroups[self.intent.portgroup][0]
        return pg.key, pg.switch_uuid

    # -- nodes

    def _vm(self, results, name: str):
        return results.get(f"clone:{name}") or self.snap.vm_mor(name)

    def _power(self, name: str, on: bool):
        return lambda r: self.d.vms.start_power(self._vm(r, name), on, name)

    def _node(self, node: NodeIntent | None, name: str, changes: list[Change]) -> None:
        text = {c.kind: str(c) for c in changes}
        if ChangeKind.DESTROY_VM in text:
            if ChangeKind.POWER_OFF in text:
                self._add(f"off:{name}", text[ChangeKind.POWER_OFF], self._power(name, False))
            destroy = lambda r: self.d.start_destroy(self._vm(r, name), name)  # noqa: E731
            self._add(f"destroy:{name}", text[ChangeKind.DESTROY_VM], destroy, (f"off:{name}",))
            return
        fresh = ChangeKind.CLONE_VM in text
        if fresh:
            self._clone(node, name, changes)
        if ChangeKind.POWER_OFF in text:
            self._add(f"off:{name}", text[ChangeKind.POWER_OFF], self._power(name, False))
        if ChangeKind.RELOCATE_VM in text:
            changes = self._relocate(name, changes)
        edits = [c for c in changes if c.kind in EDIT_KINDS]
        if edits or fresh or name in self.adopted:
            self._reconfigure(node, name, [] if fresh else changes, fresh or name in self.adopted)
        if ChangeKind.CUSTOMIZE_GUEST in text:
            self._customize(node, name, next(c for c in changes if c.kind == ChangeKind.CUSTOMIZE_GUEST))
        if ChangeKind.POWER_ON in text:
            after = (f"cfg:{name}", f"clone:{name}", f"cust:{name}", f"move:{name}")
            self._add(f"on:{name}", text[ChangeKind.POWER_ON], self._power(name, True), after)

    def _relocate(self, name: str, changes: list[Change]) -> list[Change]:
        """Detach the old host's devices, move the VM cold; the rest of its changes follow the move."""
        d, move = self.d, next(c for c in changes if c.kind == ChangeKind.RELOCATE_VM)
        detach = [c for c in changes if c.kind == ChangeKind.REMOVE_DEVICE]
        if detach:
            spec = lambda r: d.devices.change_spec([d.devices.remove(c.data["key"]) for c in detach])  # noqa: E731
            start = lambda r: d.vms.start_reconfigure(self._vm(r, name), spec(r), name)  # noqa: E731
            self._add(f"detach:{name}", "; ".join(str(c) for c in detach), start, (f"off:{name}",))
        relocate = lambda r: d.vms.start_relocate(  # noqa: E731
            self.snap, self._vm(r, name), self.intent.compute_cluster, move.data["host"], name
        )
        self._add(f"move:{name}", str(move), relocate, (f"off:{name}", f"detach:{name}"))
        return [c for c in changes if c.kind not in (ChangeKind.REMOVE_DEVICE, ChangeKind.RELOCATE_VM)]

    def _devices(self, results, node: NodeIntent, changes: list[Change], remove_keys=()) -> list:
        """Device specs for the NIC changes: removals first, then the new adapters and VFs."""
        d, pfs = self.d, self.inventory.get(node.host, {})
        devices = [d.devices.remove_nic(key) for key in remove_keys]
        devices += [d.devices.remove_nic(c.data["key"]) for c in changes if c.kind in NIC_REMOVE_KINDS]
        devices += [d.devices.remove(c.data["key"]) for c in changes if c.kind == ChangeKind.REMOVE_DEVICE]
        temp = iter(range(NIC_KEY_BASE, NIC_KEY_BASE - 1000, -1))
        pg_key, uuid = ("", "")
        if any(c.kind in PORT_KINDS for c in changes):
            pg_key, uuid = self._pg_info(results)
        for change in changes:
            if change.kind == ChangeKind.ADD_NIC and change.data["role"] == NicRole.PRIMARY:
                devices.append(d.devices.adapter(node.adapter, next(temp), pg_key, uuid, uptv2=node.devices.uptv2))
            elif change.kind == ChangeKind.ADD_NIC:
                devices.append(d.devices.network_adapter(self.snap, node.adapter, next(temp), change.data["network"]))
            elif change.kind == ChangeKind.ADD_SRIOV_NIC:
                devices.append(
                    d.devices.sriov_nic(pfs[change.data["pf"]], pg_key, uuid, next(temp), change.data.get("mac", ""))
                )
            else:
                devices += self._attachment(results, node, change, pg_key, uuid, temp)
        return devices

    def _attachment(self, results, node: NodeIntent, change: Change, pg_key: str, uuid: str, temp) -> list:
        """Device specs beyond NICs and VFs: DirectPath devices, vGPUs, the PVRDMA adapter, UPTv2."""
        d = self.d
        if change.kind == ChangeKind.ADD_PVRDMA_NIC:
            return [d.devices.pvrdma(pg_key, uuid, next(temp))]
        if change.kind == ChangeKind.ADD_PASSTHROUGH:
            return [d.devices.passthrough(change.data["device"], next(temp))]
        if change.kind == ChangeKind.ADD_VGPU:
            return [d.devices.vgpu(change.data["profile"], next(temp))]
        if change.kind == ChangeKind.SET_UPTV2:
            vm = self._vm(results, node.name)
            return [d.devices.uptv2_edit(vm, change.data["key"], change.data["enabled"], node.name)]
        return []

    def _clone(self, node: NodeIntent, name: str, changes: list[Change]) -> None:
        """Clone with the template's NICs dropped and the node's NICs in the spec."""
        clone = next(c for c in changes if c.kind == ChangeKind.CLONE_VM)
        i = self.intent

        def start(results):
            devices = self._devices(results, node, changes, clone.data.get("remove_keys", ()))
            custom = self.d.vms.customization(node, i.guest, clone.data["nics"]) if "nics" in clone.data else None
            return self.d.vms.start_clone(self.snap, i.template, i.compute_cluster, node, i.datastore, devices, custom)

        # The switch must span every host and the port group exist before a VM joins a port of it.
        self._add(f"clone:{name}", str(clone), start, NETWORK_DEPS)

    def _reconfigure(self, node: NodeIntent, name: str, changes: list[Change], full: bool) -> None:
        full = full or any(c.kind == ChangeKind.RECONFIGURE_VM for c in changes)
        d = self.d

        def start(results):
            devices = self._devices(results, node, changes)
            spec = d.vms.spec(node, devices, marker=full) if full else d.devices.change_spec(devices)
            return d.vms.start_reconfigure(self._vm(results, name), spec, name)

        steps = [str(c) for c in changes if c.kind in EDIT_KINDS] or [f"configure {name}"]
        after = [f"clone:{name}", f"off:{name}", f"move:{name}"]
        if any(c.kind in PORT_KINDS for c in changes):
            after += NETWORK_DEPS
        self._add(f"cfg:{name}", "; ".join(steps), start, after)

    def _customize(self, node: NodeIntent, name: str, change: Change) -> None:
        """CustomizeVM_Task while the VM is off: applied by the guest at the next power-on."""
        spec = self.d.vms.customization(node, self.intent.guest, change.data["nics"])
        start = lambda r: self.d.vms.start_customize(self._vm(r, name), spec, name)  # noqa: E731
        self._add(f"cust:{name}", str(change), start, (f"cfg:{name}", f"off:{name}", f"move:{name}"))

    def _remove_portgroup(self) -> None:
        pg_mor = self.snap.portgroups[self.intent.portgroup][1]
        after = [key for key in self.ops if key.startswith("destroy:")]
        name = self.intent.portgroup
        destroy = lambda r: self.d.start_destroy(pg_mor, name)  # noqa: E731
        self._add("pg-remove", f"remove_portgroup {name}", destroy, after)


NETWORK_KINDS = {
    ChangeKind.CREATE_DVS,
    ChangeKind.SET_DVS_MTU,
    ChangeKind.ADD_DVS_HOSTS,
    ChangeKind.CREATE_PORTGROUP,
    ChangeKind.SET_PORTGROUP_VLAN,
    ChangeKind.SET_PORTGROUP_FILTER,
}
# Device changes on a port of the tenant's port group (they need its key and switch).
PORT_KINDS = {ChangeKind.ADD_NIC, ChangeKind.ADD_SRIOV_NIC, ChangeKind.ADD_PVRDMA_NIC}
ADD_KINDS = PORT_KINDS | {ChangeKind.ADD_PASSTHROUGH, ChangeKind.ADD_VGPU, ChangeKind.SET_UPTV2}
NIC_REMOVE_KINDS = {ChangeKind.REMOVE_NIC, ChangeKind.REMOVE_SRIOV_NIC, ChangeKind.REMOVE_PVRDMA_NIC}
REMOVE_KINDS = NIC_REMOVE_KINDS | {ChangeKind.REMOVE_DEVICE}
EDIT_KINDS = {ChangeKind.RECONFIGURE_VM} | ADD_KINDS | REMOVE_KINDS
# Steps a NIC on the tenant's port group waits for (only those planned in this run exist).
NETWORK_DEPS = ("pg-read", "dvs-hosts", "pg-config")
