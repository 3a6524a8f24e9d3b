"""Plan one VM's attachments beyond its plain NICs and VFs: DirectPath devices, vGPUs, PVRDMA, UPTv2, its host.

Pure functions over the intent and what vCenter reports (no pyvmomi). A node placed for its devices
or host features (`NodeIntent.pinned`) that runs elsewhere is moved back, cold: its DirectPath
devices and vGPUs name the old host's hardware, so they are removed before the move and added after.
"""

from __future__ import annotations

from collections import Counter

from vsphere.plan.changes import Change, ChangeKind
from vsphere.plan.specs import NodeIntent, ObservedDevices, ObservedVM


def relocation(node: NodeIntent, vm: ObservedVM | None) -> list[Change]:
    """Move a pinned node back to the host its devices and features are on (cold: the VM is off)."""
    if vm is None or not node.pinned or vm.host == node.host:
        return []
    why = ", ".join(node.devices.describe()) or "its devices"
    return [Change(ChangeKind.RELOCATE_VM, node.name, f"{vm.host or 'no host'} -> {node.host} ({why} are there)",
                   {"host": node.host})]  # fmt: skip


def device_changes(node: NodeIntent, vm: ObservedVM | None, portgroup: str, pg_key: str | None) -> list[Change]:
    """Removals, then additions, that give the VM exactly its devices (vm None: the adds of a new VM)."""
    have = vm.devices if vm is not None else ObservedDevices()
    moving = bool(relocation(node, vm))
    removes, adds = _passthrough(node, have, moving)
    more_removes, more_adds = _vgpus(node, have, moving)
    nic_removes, nic_adds = _pvrdma(node, vm, portgroup, pg_key)
    return removes + more_removes + nic_removes + nic_adds + adds + more_adds + _uptv2(node, vm, pg_key)


def _passthrough(node: NodeIntent, have: ObservedDevices, moving: bool) -> tuple[list[Change], list[Change]]:
    want = {d.pci_id: d for d in node.devices.passthrough}
    kept, removes = set(), []
    for key, pci in have.passthrough:
        if moving or pci not in want or pci in kept:
            removes.append(Change(ChangeKind.REMOVE_DEVICE, node.name, f"DirectPath device {pci}", {"key": key}))
        else:
            kept.add(pci)
    adds = [
        Change(ChangeKind.ADD_PASSTHROUGH, node.name, f"{d.label or d.pci_id} on {node.host} (DirectPath I/O)",
               {"device": d})
        for pci, d in sorted(want.items()) if pci not in kept
    ]  # fmt: skip
    return removes, adds


def _vgpus(node: NodeIntent, have: ObservedDevices, moving: bool) -> tuple[list[Change], list[Change]]:
    want, kept, removes = Counter(node.devices.vgpus), Counter(), []
    for key, profile in have.vgpus:
        if not moving and kept[profile] < want[profile]:
            kept[profile] += 1
        else:
            detail = f"vGPU {profile or '(no profile)'}"
            removes.append(Change(ChangeKind.REMOVE_DEVICE, node.name, detail, {"key": key}))
    adds = [
        Change(ChangeKind.ADD_VGPU, node.name, f"vGPU {profile} on {node.host}", {"profile": profile})
        for profile in sorted((want - kept).elements())
    ]
    return removes, adds


def _pvrdma(node: NodeIntent, vm: ObservedVM | None, portgroup: str, pg_key) -> tuple[list[Change], list[Change]]:
    """One PVRDMA adapter on the tenant's port group when the node wants it; every other one goes."""
    nics = [nic for nic in vm.nics if nic.is_pvrdma] if vm is not None else []
    keep = next((nic for nic in nics if pg_key and nic.portgroup_key == pg_key), None) if node.devices.pvrdma else None
    removes = [
        Change(ChangeKind.REMOVE_PVRDMA_NIC, node.name, f"PVRDMA adapter on {nic.network or 'another network'}",
               {"key": nic.key})
        for nic in nics if nic is not keep
    ]  # fmt: skip
    adds = []
    if node.devices.pvrdma and keep is None:
        adds.append(Change(ChangeKind.ADD_PVRDMA_NIC, node.name, f"PVRDMA adapter (RoCE v2) on {portgroup}",
                           {"role": "pvrdma"}))  # fmt: skip
    return removes, adds


def _uptv2(node: NodeIntent, vm: ObservedVM | None, pg_key) -> list[Change]:
    """UPTv2 on the primary VMXNET3 exactly when the node runs on a DPU-offloaded switch (an added one carries it)."""
    if vm is None or not pg_key:
        return []
    primary = next((nic for nic in vm.nics if nic.portgroup_key == pg_key and nic.kind == node.adapter), None)
    if primary is None:
        return []
    enabled = dict(vm.devices.uptv2).get(primary.key, False)
    if enabled == node.devices.uptv2:
        return []
    detail = f"UPTv2 {'on' if node.devices.uptv2 else 'off'} on the primary {node.adapter}"
    return [Change(ChangeKind.SET_UPTV2, node.name, detail, {"key": primary.key, "enabled": node.devices.uptv2})]


def freed(vm: ObservedVM) -> list[str]:
    """What destroying the VM frees, for the plan preview."""
    out = [f"{len(vm.sriov_nics)} VF(s)"] if vm.sriov_nics else []
    out += [f"DirectPath device {pci}" for _key, pci in vm.devices.passthrough]
    return out + [f"vGPU {profile}" for _key, profile in vm.devices.vgpus]
