"""Refuse what real vSphere refuses but the simulator accepts, for devices beyond SR-IOV, before any call.

- a PVRDMA adapter on a host without a VMkernel adapter tagged for PVRDMA or with the pvrdma firewall
  rule closed (the VM would power on and fall back to TCP, or not talk RDMA at all);
- a vGPU profile mix the host's GPUs cannot hold: NVIDIA's time-sliced (same-size) mode runs one
  profile size per GPU, so n vGPUs of a profile need ceil(n / per_gpu) GPUs of their own;
- a DirectPath device that is not passthrough-enabled on the VM's host, or that another VM holds;
- adding a DirectPath device or vGPU to a powered-on VM (no hot-add), or without all memory reserved;
- UPTv2 where no DPU offloads the switch, the enhanced data path where the switch does not run it.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable

from vsphere.errors import PreflightError
from vsphere.plan.changes import Change, ChangeKind
from vsphere.plan.specs import ClusterIntent, HostDeviceInventory, NodeDevices, Observed, ObservedVM, PowerState

DeviceInventory = dict[str, HostDeviceInventory]  # host -> what it offers


def node_problems(
    name: str, host: str, devices: NodeDevices, full_reservation: bool, inv: DeviceInventory
) -> list[str]:
    """Problems of one VM's devices taken alone, on its host."""
    offer = inv.get(host, HostDeviceInventory(host))
    problems = []
    if devices.pvrdma and offer.pvrdma_problems:
        problems.append(f"{name}: PVRDMA on {host} needs the host prepared: {'; '.join(offer.pvrdma_problems)}")
    for device in devices.passthrough:
        if device.pci_id not in offer.passthrough:
            problems.append(f"{name}: {device.pci_id} is not enabled for DirectPath I/O on {host}")
    for profile in sorted(set(devices.vgpus)):
        if offer.profile(profile) is None:
            problems.append(f"{name}: no GPU of {host} runs vGPU profile {profile}")
    if len(devices.vgpus) > 1 and len(set(devices.vgpus)) > 1:
        problems.append(f"{name}: all vGPUs of one VM must share one profile ({', '.join(sorted(set(devices.vgpus)))})")
    if devices.uptv2 and not offer.offload:
        problems.append(f"{name}: UPTv2 needs a DPU offloading the switch on {host}, which has none")
    if devices.ens and not offer.ens:
        problems.append(f"{name}: the switch does not run the enhanced data path (ENS) on {host}")
    if devices.needs_reservation and not full_reservation:
        problems.append(f"{name}: DirectPath I/O, vGPU and PVRDMA need all guest memory reserved")
    return problems


def vgpu_mix_problems(wanted: Iterable[tuple[str, str, tuple[str, ...]]], inv: DeviceInventory) -> list[str]:
    """Per host, whether every VM's vGPUs (ours and everyone else's) fit its GPUs, one profile size per GPU.

    `wanted`: (host, VM, vGPU profiles) for every VM that should run there, including VMs of others.
    """
    by_host: dict[str, Counter] = defaultdict(Counter)
    for host, _vm, profiles in wanted:
        by_host[host].update(profiles)
    problems = []
    for host, counts in sorted(by_host.items()):
        offer = inv.get(host, HostDeviceInventory(host))
        need: Counter = Counter()
        for profile, count in counts.items():
            kind, per_gpu = offer.profile(profile) or (0, 1)
            need[kind] += math.ceil(count / per_gpu)
        for kind, gpus in need.items():
            if gpus > offer.gpus_of(kind):
                mix = " and ".join(
                    f"{n} × {p}" for p, n in sorted(counts.items()) if (offer.profile(p) or (0,))[0] == kind
                )
                problems.append(
                    f"{host}: {mix} need {gpus} GPUs (one profile size per GPU in time-sliced mode); "
                    f"the host has {offer.gpus_of(kind)}"
                )
    return problems


def passthrough_conflicts(wanted: Iterable[tuple[str, str, str]], users: dict[tuple[str, str], list[str]]) -> list[str]:
    """A whole device goes to one VM: (host, VM, PCI id) wanted against the VMs that hold each device now."""
    problems, taken = [], {}
    for host, vm, pci in wanted:
        others = [u for u in users.get((host, pci), []) if u != vm]
        if others or taken.get((host, pci), vm) != vm:
            problems.append(f"{vm}: {pci} on {host} is held by {', '.join(others or [taken[(host, pci)]])}")
        taken[(host, pci)] = vm
    return problems


def check_device_add(vm_name: str, power: PowerState, reservation_locked: bool) -> None:
    """Refuse adding a DirectPath device or vGPU to a running VM or one without full memory reservation."""
    problems = []
    if power != PowerState.OFF:
        problems.append(f"{vm_name}: DirectPath devices and vGPUs can only be added while the VM is powered off")
    if not reservation_locked:
        problems.append(f"{vm_name}: DirectPath I/O and vGPU need all guest memory reserved")
    if problems:
        raise PreflightError(problems)


def check_cluster(intent: ClusterIntent, vms: list[ObservedVM], ours: set[str], inv: DeviceInventory) -> None:
    """Every node's devices on its host, the vGPU mix of every host, whole devices held once: or refuse them all.

    `vms`: every VM of the datacenter as vCenter reports it; `ours`: this cluster's (those not in the
    intent are about to be destroyed, so what they hold does not count).
    """
    problems = []
    for node in intent.nodes:
        problems += node_problems(node.name, node.host, node.devices, node.full_reservation, inv)
    wanted = [(node.host, node.name, node.devices.vgpus) for node in intent.nodes if node.devices.vgpus]
    others = [vm for vm in vms if vm.name not in ours and not vm.template]
    wanted += [(vm.host, vm.name, tuple(p for _key, p in vm.devices.vgpus)) for vm in others if vm.devices.vgpus]
    problems += vgpu_mix_problems(wanted, inv)
    users: dict[tuple[str, str], list[str]] = defaultdict(list)
    for vm in others:
        for _key, pci in vm.devices.passthrough:
            users[(vm.host, pci)].append(vm.name)
    whole = [(node.host, node.name, d.pci_id) for node in intent.nodes for d in node.devices.passthrough]
    problems += passthrough_conflicts(whole, users)
    if problems:
        raise PreflightError(problems)


def check_adds_while_off(changes: list[Change], observed: Observed) -> None:
    """Refuse a plan that would add a DirectPath device or vGPU to a running VM it does not power off first."""
    off = {c.target for c in changes if c.kind == ChangeKind.POWER_OFF}
    for change in changes:
        vm = observed.vm(change.target)
        if change.kind in HOT_ADD_REFUSED and vm is not None and change.target not in off:
            check_device_add(vm.name, vm.power, True)


HOT_ADD_REFUSED = {ChangeKind.ADD_PASSTHROUGH, ChangeKind.ADD_VGPU}  # vSphere has no hot-add for these
