"""Checks that refuse what real vSphere refuses but the simulator accepts, before any call."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from vsphere.errors import PreflightError
from vsphere.plan.specs import ClusterIntent, NodeIntent, Observed, PhysicalFunction, PowerState

PFInventory = dict[str, dict[str, PhysicalFunction]]  # host -> PCI id -> PF


def check_cluster(intent: ClusterIntent, inventory: PFInventory, observed: Observed | None = None):
    """Raise PreflightError listing every reason the intent cannot be realized."""
    problems: list[str] = []
    for node in intent.nodes:
        problems += node_problems(node, inventory)
    problems += capacity_problems(intent.nodes, inventory, observed)
    if intent.vlan and not 1 <= intent.vlan <= 4094:
        problems.append(f"VLAN {intent.vlan} is outside 1..4094")
    if problems:
        raise PreflightError(problems)


def node_problems(node: NodeIntent, inventory: PFInventory) -> list[str]:
    """Problems with one node taken alone: unknown PFs and missing memory reservation."""
    problems = []
    host_pfs = inventory.get(node.host, {})
    for pf in node.sriov_pfs:
        if pf not in host_pfs:
            problems.append(f"{node.name}: PF {pf} is not an SR-IOV function of host {node.host}")
    if node.sriov_pfs and not node.full_reservation:
        problems.append(f"{node.name}: SR-IOV needs all guest memory reserved")
    if node.cpus < 1 or node.memory_mb < 4:
        problems.append(f"{node.name}: needs at least 1 vCPU and 4 MB of memory")
    return problems


def capacity_problems(nodes: Iterable[NodeIntent], inventory: PFInventory, observed: Observed | None) -> list[str]:
    """Refuse handing out more VFs on a PF than the driver enabled."""
    nodes = list(nodes)
    ours = {node.name for node in nodes}
    demand = Counter((node.host, pf) for node in nodes for pf in node.sriov_pfs)
    problems = []
    for (host, pf_id), wanted in sorted(demand.items()):
        pf = inventory.get(host, {}).get(pf_id)
        if pf is None:
            continue  # reported as unknown PF already
        others = 0
        if observed is not None:
            others = sum(1 for vm in observed.vf_users.get((host, pf_id), []) if vm not in ours)
        if wanted + others > pf.num_vfs:
            problems.append(f"PF {pf_id} on {host} has {pf.num_vfs} VFs; {others} in use elsewhere, {wanted} requested")
    return problems


def check_sriov_add(vm_name: str, power: PowerState, reservation_locked: bool):
    """Refuse adding an SR-IOV NIC to a running VM or one without full memory reservation."""
    problems = []
    if power != PowerState.OFF:
        problems.append(f"{vm_name}: SR-IOV NICs can only be added while the VM is powered off")
    if not reservation_locked:
        problems.append(f"{vm_name}: SR-IOV needs all guest memory reserved")
    if problems:
        raise PreflightError(problems)


def check_pf(host: str, pf_id: str, inventory: PFInventory, in_use: int = 0):
    """Refuse an unknown PF or one without a free VF."""
    pf = inventory.get(host, {}).get(pf_id)
    if pf is None:
        raise PreflightError([f"PF {pf_id} is not an SR-IOV function of host {host}"])
    if in_use + 1 > pf.num_vfs:
        raise PreflightError([f"PF {pf_id} on {host} has no free VF ({in_use}/{pf.num_vfs} used)"])
