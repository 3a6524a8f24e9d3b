"""Converge one cluster: observe, plan, preflight, then run the plan as one batch."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace

from vsphere import preflight
from vsphere.batch import BatchRunner, Op, StepCallback
from vsphere.errors import MarkerMismatchError
from vsphere.plan import Change, ChangeKind, plan
from vsphere.specs import ClusterIntent, NodeIntent, Observed
from vsphere.verbs import observed_from

NIC_KEY_BASE = -100  # temporary device keys for added NICs


@dataclass
class ConvergeResult:
    """What a converge run did."""

    changes: list[Change]
    observed: Observed


def preview(driver, intent: ClusterIntent) -> list[Change]:
    """Dry run: the changes converge would make now (reads only)."""
    return plan(intent, driver.observe(intent))


def converge(
    driver,
    intent: ClusterIntent,
    inventory: preflight.PFInventory | None = None,
    adopt: frozenset[str] = frozenset(),
    on_step: StepCallback | None = None,
) -> ConvergeResult:
    """Make vCenter match the intent; running it again changes nothing."""
    if inventory is not None:
        preflight.check_cluster(intent, inventory)  # before any vSphere call
    snap = driver.snapshot(intent.datacenter)
    observed = observed_from(snap, intent)
    adopted = _adopt(intent, observed, adopt)
    changes = plan(intent, observed)
    blocked = [c for c in changes if c.kind == ChangeKind.BLOCKED]
    if blocked:
        raise MarkerMismatchError("; ".join(str(c) for c in blocked), fault="MarkerMismatch")
    preflight.check_cluster(intent, inventory if inventory is not None else snap.pfs, observed)
    if changes or adopted:
        ops = _Builder(driver, snap, intent, inventory or snap.pfs, adopted).build(changes)
        BatchRunner(driver, on_step).run(ops)
    return ConvergeResult(changes=changes, observed=observed)


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
            create = lambda r: d.start_create_dvs(self.snap, i.dvs_name, i.dvs_marker, i.mtu)  # noqa: E731
            self._add("dvs", str(change), create)
        elif change.kind == ChangeKind.SET_DVS_MTU:
            version = self.snap.dvs_config_version[i.dvs_name]
            set_mtu = lambda r: d.start_set_dvs_mtu(self._dvs(r), version, i.mtu)  # noqa: E731
            self._add("dvs-mtu", str(change), set_mtu)
        elif change.kind == ChangeKind.ADD_DVS_HOSTS:
            hosts = [self.snap.hosts[h] for h in change.data["hosts"]]

            def add_hosts(r):
                dvs = self._dvs(r)
                return d.start_add_dvs_hosts(dvs, d.dvs_config_version(dvs), hosts, i.uplink_pnic)

            self._add("dvs-hosts", str(change), add_hosts, ("dvs", "dvs-mtu"))
        elif change.kind == ChangeKind.CREATE_PORTGROUP:
            start = lambda r: d.start_create_portgroup(  # noqa: E731
                self._dvs(r), i.portgroup, i.portgroup_marker, i.vlan
            )
            self._add("pg", str(change), start, ("dvs",))
            self._add("pg-read", f"read port group {i.portgroup}", self._read_portgroup, ("pg",))
        elif change.kind == ChangeKind.SET_PORTGROUP_VLAN:
            pg, pg_mor = self.snap.portgroups[i.portgroup]
            version = self.snap.pg_config_version[i.portgroup]
            start = lambda r: d.start_set_portgroup_vlan(  # noqa: E731
                pg_mor, i.portgroup, i.portgroup_marker, i.vlan, version
            )
            self._add("pg-vlan", str(change), start)

    def _read_portgroup(self, results) -> None:
        pg = self.d.snapshot(self.intent.datacenter).portgroups[self.intent.portgroup][0]
        results["pg-info"] = (pg.key, pg.switch_uuid)
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
        return lambda r: self.d.start_power(self._vm(r, name), on, name)

    def _node(self, node: NodeIntent | None, name: str, changes: list[Change]) -> None:
        text = {c.kind: str(c) for c in changes}
        if ChangeKind.DESTROY_VM in text:
            if ChangeKind.POWER_OFF in text:
                self._add(f"off:{name}", text[ChangeKind.POWER_OFF], self._power(name, False))
            destroy = lambda r: self.d.start_destroy(self._vm(r, name), name)  # noqa: E731
            self._add(f"destroy:{name}", text[ChangeKind.DESTROY_VM], destroy, (f"off:{name}",))
            return
        if ChangeKind.CLONE_VM in text:
            i = self.intent
            clone = lambda r: self.d.start_clone(  # noqa: E731
                self.snap, i.template, i.compute_cluster, node, i.datastore
            )
            self._add(f"clone:{name}", text[ChangeKind.CLONE_VM], clone)
        if ChangeKind.POWER_OFF in text:
            self._add(f"off:{name}", text[ChangeKind.POWER_OFF], self._power(name, False))
        edits = [c for c in changes if c.kind in EDIT_KINDS]
        if edits or ChangeKind.CLONE_VM in text or name in self.adopted:
            self._reconfigure(node, name, changes)
        if ChangeKind.POWER_ON in text:
            after = (f"cfg:{name}", f"clone:{name}")
            self._add(f"on:{name}", text[ChangeKind.POWER_ON], self._power(name, True), after)

    def _reconfigure(self, node: NodeIntent, name: str, changes: list[Change]) -> None:
        adds = [c.data["pf"] for c in changes if c.kind == ChangeKind.ADD_SRIOV_NIC]
        removes = [c.data["key"] for c in changes if c.kind == ChangeKind.REMOVE_SRIOV_NIC]
        fresh = any(c.kind == ChangeKind.CLONE_VM for c in changes) or name in self.adopted
        full = fresh or any(c.kind == ChangeKind.RECONFIGURE_VM for c in changes)
        pfs = self.inventory.get(node.host, {})
        d = self.d

        def start(results):
            pg_key, uuid = self._pg_info(results) if adds else ("", "")
            devices = [d.nic_remove(key) for key in removes]
            devices += [
                d.nic_add(pfs[pf], pg_key, uuid, NIC_KEY_BASE - n) for n, pf in enumerate(adds)
            ]
            spec = d.vm_spec(node, devices, marker=fresh) if full else d.nic_change_spec(devices)
            return d.start_reconfigure(self._vm(results, name), spec, name)

        steps = [str(c) for c in changes if c.kind in EDIT_KINDS] or [f"configure {name}"]
        after = [f"clone:{name}", f"off:{name}"]
        if adds:
            # The switch must span every host of the cluster before a VM joins a port of it.
            after += ["pg-read", "dvs-hosts", "pg-vlan"]
        self._add(f"cfg:{name}", "; ".join(steps), start, after)

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
}
EDIT_KINDS = {ChangeKind.RECONFIGURE_VM, ChangeKind.ADD_SRIOV_NIC, ChangeKind.REMOVE_SRIOV_NIC}
