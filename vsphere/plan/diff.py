"""Diff a cluster intent against what vCenter has: the changes the reconciler will make."""

from __future__ import annotations

from collections import Counter

from vsphere.plan import guest, vf_mac
from vsphere.plan.changes import Change, ChangeKind
from vsphere.plan.device_diff import device_changes, freed, relocation
from vsphere.plan.specs import ClusterIntent, NicRole, NodeIntent, Observed, ObservedNic, ObservedVM, PowerState

__all__ = ["Change", "ChangeKind", "plan", "filter_drift"]


def plan(intent: ClusterIntent, observed: Observed) -> list[Change]:
    """Return the ordered changes that make vCenter match the intent (empty when converged)."""
    changes = _blocked(intent, observed)
    if changes:
        return changes
    if not intent.decommission:
        changes += _network_changes(intent, observed)
    wanted = {} if intent.decommission else {node.name: node for node in intent.nodes}
    pg_key = observed.portgroup.key if observed.portgroup else None
    for node in wanted.values():
        changes += _node_changes(node, intent, observed, pg_key)
    for name, vm in sorted(observed.vms.items()):
        if name not in wanted:
            changes += _removal(vm)
    if intent.decommission and not intent.portgroup_external:
        changes += _portgroup_removal(intent, observed)
    return changes


def _blocked(intent: ClusterIntent, observed: Observed) -> list[Change]:
    blocked = []
    if observed.dvs and not intent.portgroup_external and observed.dvs.marker != intent.dvs_marker:
        blocked.append(_foreign("switch", intent.dvs_name, observed.dvs.marker))
    if intent.portgroup_external and observed.portgroup is None and not intent.decommission:
        blocked.append(Change(ChangeKind.BLOCKED, intent.portgroup or "NSX segment",
                              "NSX has not made the segment's port group in vCenter"))  # fmt: skip
    elif observed.portgroup and not intent.portgroup_external and observed.portgroup.marker != intent.portgroup_marker:
        blocked.append(_foreign("port group", intent.portgroup, observed.portgroup.marker))
    for node in intent.nodes:
        vm = observed.vm(node.name)
        if vm and vm.marker != node.marker:
            blocked.append(_foreign("VM", node.name, vm.marker))
    return blocked


def _foreign(what: str, name: str, marker: str) -> Change:
    """A change refusing an object of ours by name that carries another marker, or none."""
    # Its words reach the cluster's tenant (plan preview, step log, status): another cluster's marker would tell them
    # another tenant's cluster id, so only `data` keeps it (for the worker's log).
    owner = "belongs to something else" if marker else "has no Enclave marker"
    detail = f"a {what} of that name exists in vCenter and {owner}; refusing to touch it"
    return Change(ChangeKind.BLOCKED, name, detail, {"marker": marker})


def _network_changes(intent: ClusterIntent, observed: Observed) -> list[Change]:
    if intent.portgroup_external:  # NSX's switch and port group: the site prepared them, NSX configures them
        return []
    changes = []
    dvs = observed.dvs
    if dvs is None:
        changes.append(Change(ChangeKind.CREATE_DVS, intent.dvs_name, f"MTU {intent.mtu}"))
        missing = list(intent.hosts)
    else:
        missing = [h for h in intent.hosts if h not in dvs.hosts]
        if dvs.mtu != intent.mtu:
            changes.append(Change(ChangeKind.SET_DVS_MTU, intent.dvs_name, f"{dvs.mtu} -> {intent.mtu}"))
    if missing:
        detail = f"{', '.join(missing)} uplinked on {intent.uplink_pnic}"
        changes.append(Change(ChangeKind.ADD_DVS_HOSTS, intent.dvs_name, detail, {"hosts": missing}))
    pg = observed.portgroup
    if pg is None:
        rules = "" if intent.filter_rules is None else f", traffic filter of {len(intent.filter_rules)} rules"
        changes.append(Change(ChangeKind.CREATE_PORTGROUP, intent.portgroup, f"VLAN {intent.vlan}{rules}"))
        return changes
    if pg.vlan != intent.vlan:
        changes.append(Change(ChangeKind.SET_PORTGROUP_VLAN, intent.portgroup, f"{pg.vlan} -> {intent.vlan}"))
    if intent.filter_rules is not None and pg.filter_rules != intent.filter_rules:
        changes.append(
            Change(
                ChangeKind.SET_PORTGROUP_FILTER, intent.portgroup, filter_drift(pg.filter_rules, intent.filter_rules)
            )
        )
    return changes


def filter_drift(have, want) -> str:
    """What differs between the port group's traffic filter and the compiled policy, in a few words."""
    if have is None:
        return f"no traffic filter; apply the tenant policy ({len(want)} rules)"
    missing, extra = len(set(want) - set(have)), len(set(have) - set(want))
    return f"traffic filter differs from the tenant policy ({missing} rules missing, {extra} not in the policy)"


def _node_changes(node: NodeIntent, intent: ClusterIntent, observed: Observed, pg_key: str | None) -> list[Change]:
    vm = observed.vm(node.name)
    if vm is None:
        nics = _nic_changes(node, intent, (), pg_key) + [_add_nic(node, vf) for vf in _wanted_vfs(node)]
        nics += device_changes(node, None, intent.portgroup, pg_key)
        changes = [_clone(node, intent, observed.template_nics, nics)]
        changes += _config_changes(node, None)
        changes += nics
        if node.power_on:
            changes.append(Change(ChangeKind.POWER_ON, node.name))
        return changes
    config = relocation(node, vm) + _config_changes(node, vm)
    nics = _nic_changes(node, intent, vm.nics, pg_key) + _sriov_changes(node, vm, pg_key)
    nics += device_changes(node, vm, intent.portgroup, pg_key)
    return _with_power(node, vm, config + nics + _guest_changes(node, intent, vm, nics, pg_key))


def _wanted_vfs(node: NodeIntent) -> list[tuple[str, str]]:
    """(PF, MAC) of each VF the node should have; MAC "" where vSphere may pick it."""
    macs = node.sriov_macs or ("",) * len(node.sriov_pfs)
    return list(zip(node.sriov_pfs, macs, strict=True))


def _sriov_changes(node: NodeIntent, vm: ObservedVM, pg_key: str | None) -> list[Change]:
    """VFs on the tenant's port group from the right PFs, with the MACs their InfiniBand port GUIDs need.

    A VF whose MAC differs (changed out of band) is replaced: its port GUID would not be in the tenant's partition.
    """
    want = Counter(_wanted_vfs(node))
    kept: list[int] = []
    for nic in vm.sriov_nics:
        for key in ((nic.pf, nic.mac), (nic.pf, "")):
            if nic.portgroup_key == pg_key and want[key] > 0:
                want[key] -= 1
                kept.append(nic.key)
                break
    removes = [Change(ChangeKind.REMOVE_SRIOV_NIC, node.name, nic.pf, {"key": nic.key})
               for nic in vm.sriov_nics if nic.key not in kept]  # fmt: skip
    return removes + [_add_nic(node, vf) for vf in sorted(want.elements())]


def _added_roles(changes: list[Change]) -> list[NicRole]:
    """Roles of the NICs these changes add, in the order they are added."""
    roles = []
    for change in changes:
        if change.kind == ChangeKind.ADD_NIC:
            roles.append(NicRole(change.data["role"]))
        elif change.kind == ChangeKind.ADD_SRIOV_NIC:
            roles.append(NicRole.SRIOV)
        elif change.kind == ChangeKind.ADD_PVRDMA_NIC:
            roles.append(NicRole.PVRDMA)
    return roles


def _guest_changes(node: NodeIntent, intent: ClusterIntent, vm: ObservedVM, nics: list[Change], pg_key) -> list:
    """Customize the guest again when its NICs change or it reports another host name or address."""
    if intent.guest is None or not node.primary_ip:
        return []
    removed = {c.data["key"] for c in nics if c.kind in NIC_REMOVE_KINDS}
    kept = sorted((nic for nic in vm.nics if nic.key not in removed), key=lambda nic: nic.key)
    drifted = guest.drift(node, intent, vm, kept, pg_key)
    if not drifted and not any(c.kind in NIC_EDIT_KINDS for c in nics):
        return []
    roles = [guest.role_of(nic, intent, pg_key) for nic in kept] + _added_roles(nics)
    nic_ips = guest.guest_nics(node, roles)
    why = f"guest reports {'; '.join(drifted)}" if drifted else "its NICs change"
    detail = f"{guest.describe(node, nic_ips)} ({why})"
    return [Change(ChangeKind.CUSTOMIZE_GUEST, node.name, detail, {"nics": nic_ips})]


def _clone(node: NodeIntent, intent: ClusterIntent, template_nics: tuple[ObservedNic, ...], nics) -> Change:
    detail = f"from {intent.template} on {node.host}"
    if template_nics:
        dropped = ", ".join(_describe_nic(nic) for nic in template_nics)
        detail += f"; without the template's NICs ({dropped})"
    data = {"remove_keys": [nic.key for nic in template_nics]}
    if intent.guest is not None:
        data["nics"] = guest.guest_nics(node, _added_roles(nics))
        detail += f"; customized: {guest.describe(node, data['nics'])}"
    return Change(ChangeKind.CLONE_VM, node.name, detail, data)


def _describe_nic(nic: ObservedNic) -> str:
    return f"{nic.kind} on {nic.network or 'no network'}"


def _nic_changes(node: NodeIntent, intent: ClusterIntent, nics, pg_key: str | None) -> list[Change]:
    """One primary adapter on the tenant's port group, one on the management network if the site
    declares one; every other non-VF NIC is removed (a NIC on a foreign network is drift)."""
    plain = [nic for nic in nics if not nic.is_sriov and not nic.is_pvrdma]
    on_pg = [nic for nic in plain if pg_key and nic.portgroup_key == pg_key]
    keep = [next((nic for nic in on_pg if nic.kind == node.adapter), None)]
    if intent.management_network:
        mgmt = [nic for nic in plain if nic not in on_pg and nic.network == intent.management_network]
        keep.append(next(iter(mgmt), None))
    changes = []
    for nic in plain:
        if nic not in keep:
            why = "not the tenant's network" if nic not in on_pg else f"the primary adapter is {node.adapter}"
            changes.append(Change(ChangeKind.REMOVE_NIC, node.name, f"{_describe_nic(nic)} ({why})", {"key": nic.key}))
    if keep[0] is None:
        changes.append(_add_adapter(node, NicRole.PRIMARY, intent.portgroup))
    if intent.management_network and keep[1] is None:
        changes.append(_add_adapter(node, NicRole.MANAGEMENT, intent.management_network))
    return changes


def _add_adapter(node: NodeIntent, role: NicRole, network: str) -> Change:
    upt = " with UPTv2" if role == NicRole.PRIMARY and node.devices.uptv2 else ""
    detail = f"{node.adapter}{upt} on {network} ({role.value})"
    return Change(ChangeKind.ADD_NIC, node.name, detail, {"role": role.value, "network": network})


NIC_REMOVE_KINDS = {ChangeKind.REMOVE_NIC, ChangeKind.REMOVE_SRIOV_NIC, ChangeKind.REMOVE_PVRDMA_NIC}
NIC_EDIT_KINDS = NIC_REMOVE_KINDS | {ChangeKind.ADD_NIC, ChangeKind.ADD_SRIOV_NIC, ChangeKind.ADD_PVRDMA_NIC}


def _with_power(node: NodeIntent, vm: ObservedVM, edits: list[Change]) -> list[Change]:
    running = vm.power == PowerState.ON
    changes = []
    if edits and running:
        changes.append(Change(ChangeKind.POWER_OFF, node.name, "needed to change hardware"))
    changes += edits
    if node.power_on and (not running or edits):
        changes.append(Change(ChangeKind.POWER_ON, node.name))
    if not node.power_on and running and not edits:
        changes.append(Change(ChangeKind.POWER_OFF, node.name))
    return changes


def _config_changes(node: NodeIntent, vm: ObservedVM | None) -> list[Change]:
    want = _hardware(node.cpus, node.memory_mb, node.full_reservation, node.latency_high)
    if vm is not None:
        have = _hardware(vm.cpus, vm.memory_mb, vm.reservation_locked, vm.latency_high)
        if have == want:
            return []
    detail = "{} vCPU, {} MB, reservation {}, latency {}".format(*_describe(want))
    return [Change(ChangeKind.RECONFIGURE_VM, node.name, detail)]


def _hardware(cpus: int, memory: int, locked: bool, latency: bool) -> tuple:
    return (cpus, memory, locked, latency)


def _describe(hw: tuple) -> tuple:
    cpus, memory, locked, latency = hw
    return cpus, memory, "all" if locked else "none", "high" if latency else "normal"


def _add_nic(node: NodeIntent, vf: tuple[str, str]) -> Change:
    pf, mac = vf
    if not mac:
        return Change(ChangeKind.ADD_SRIOV_NIC, node.name, f"VF of {pf} on {node.host}", {"pf": pf})
    detail = f"VF of {pf} on {node.host}, MAC {mac} (InfiniBand port GUID {vf_mac.guid_for_mac(mac)})"
    return Change(ChangeKind.ADD_SRIOV_NIC, node.name, detail, {"pf": pf, "mac": mac})


def _removal(vm: ObservedVM) -> list[Change]:
    changes = []
    if vm.power != PowerState.OFF:
        changes.append(Change(ChangeKind.POWER_OFF, vm.name))
    frees = freed(vm)
    changes.append(Change(ChangeKind.DESTROY_VM, vm.name, f"frees {', '.join(frees)}" if frees else ""))
    return changes


def _portgroup_removal(intent: ClusterIntent, observed: Observed) -> list[Change]:
    if observed.portgroup is None:
        return []
    ours = set(observed.vms)
    if any(user not in ours for user in observed.portgroup_users):
        return []  # still used by other clusters on the same segment
    return [Change(ChangeKind.REMOVE_PORTGROUP, intent.portgroup)]
