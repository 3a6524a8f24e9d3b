"""The plan for attachments beyond plain NICs and VFs, as pure data: what is added, removed, moved, in which order."""

from dataclasses import replace

import pytest

from vsphere.errors import PreflightError
from vsphere.plan.changes import ChangeKind
from vsphere.plan.device_preflight import check_adds_while_off
from vsphere.plan.diff import plan
from vsphere.plan.specs import (
    ClusterIntent,
    NodeDevices,
    NodeIntent,
    Observed,
    ObservedDevices,
    ObservedDVS,
    ObservedNic,
    ObservedPortgroup,
    ObservedVM,
    PassthroughDevice,
    PowerState,
)

GPU_A = PassthroughDevice("0000:af:00.0", 0x10DE, 0x20F1, "sys-h1", "GPU 0000:af:00.0 (NVIDIA A100-PCIE-40GB)")
GPU_B = PassthroughDevice("0000:b0:00.0", 0x10DE, 0x20F1, "sys-h1", "GPU 0000:b0:00.0 (NVIDIA A100-PCIE-40GB)")
PG = ObservedPortgroup("enclave-lab-vlan120", "pg-1", "pgkey", "segment", 120, "uuid")
DVS = ObservedDVS("dvs", "dvs-1", "dvs", "uuid", 9000, ("h1", "h2"))
PRIMARY = ObservedNic(4000, "", "pgkey", "uuid", kind="vmxnet3", network=PG.name)


def node(**devices) -> NodeIntent:
    return NodeIntent(name="lab-ml-w01", marker="m/lab-ml-w01", host="h1", cpus=4, memory_mb=8192,
                      devices=NodeDevices(**devices), pinned=True)  # fmt: skip


def intent(n: NodeIntent) -> ClusterIntent:
    return ClusterIntent(datacenter="DC0", compute_cluster="C0", template="t", dvs_name="dvs", dvs_marker="dvs",
                         uplink_pnic="vmnic2", portgroup=PG.name, portgroup_marker="segment", vlan=120,
                         hosts=("h1", "h2"), nodes=(n,), marker="m")  # fmt: skip


def observed(n: NodeIntent, host="h1", nics=(PRIMARY,), power=PowerState.ON, **devices) -> Observed:
    vm = ObservedVM(name=n.name, moid="vm-1", marker=n.marker, host=host, cpus=n.cpus, memory_mb=n.memory_mb,
                    reservation_locked=n.full_reservation, latency_high=False, power=power, nics=tuple(nics),
                    devices=ObservedDevices(**devices))  # fmt: skip
    return Observed(vms={n.name: vm}, dvs=DVS, portgroup=PG)


def kinds(changes) -> list[str]:
    return [c.kind.value for c in changes]


def test_a_new_vm_gets_its_gpus_vgpu_and_pvrdma_adapter_in_the_clone_with_all_memory_reserved():
    n = node(passthrough=(GPU_A,), vgpus=(), pvrdma=True)
    changes = plan(intent(n), Observed(dvs=DVS, portgroup=PG))
    assert kinds(changes) == ["clone_vm", "reconfigure_vm", "add_nic", "add_pvrdma_nic", "add_passthrough",
                              "power_on"]  # fmt: skip
    assert "reservation all" in str(changes[1]) and n.full_reservation
    assert (
        str(changes[4]) == "add_passthrough lab-ml-w01: GPU 0000:af:00.0 (NVIDIA A100-PCIE-40GB) on h1 (DirectPath I/O)"
    )


def test_a_converged_vm_plans_nothing():
    n = node(passthrough=(GPU_A,), vgpus=("grid_a100-20c",), pvrdma=True, uptv2=True)
    pvrdma = ObservedNic(4001, "", "pgkey", "uuid", kind="pvrdma", network=PG.name)
    have = observed(n, nics=(PRIMARY, pvrdma), passthrough=((13000, GPU_A.pci_id),), vgpus=((13001, "grid_a100-20c"),),
                    pvrdma=((4001, "pgkey"),), uptv2=((4000, True),))  # fmt: skip
    assert plan(intent(n), have) == []


def test_a_stray_gpu_is_removed_and_the_wanted_one_added_while_the_vm_is_off():
    n = node(passthrough=(GPU_B,))
    changes = plan(intent(n), observed(n, passthrough=((13000, GPU_A.pci_id),)))
    assert kinds(changes) == ["power_off", "remove_device", "add_passthrough", "power_on"]
    assert changes[1].data == {"key": 13000} and changes[2].data["device"] == GPU_B


def test_a_vgpu_of_another_profile_is_replaced_and_a_second_vgpu_added():
    n = node(vgpus=("grid_a100-20c", "grid_a100-20c"))
    changes = plan(intent(n), observed(n, vgpus=((13000, "grid_a100-10c"), (13001, "grid_a100-20c"))))
    assert kinds(changes) == ["power_off", "remove_device", "add_vgpu", "power_on"]
    assert changes[1].data == {"key": 13000} and changes[2].data == {"profile": "grid_a100-20c"}


def test_a_pinned_node_found_on_another_host_is_moved_back_with_its_devices_detached_and_added_again():
    n = node(passthrough=(GPU_A,))
    changes = plan(intent(n), observed(n, host="h2", passthrough=((13000, GPU_A.pci_id),)))
    assert kinds(changes) == ["power_off", "relocate_vm", "remove_device", "add_passthrough", "power_on"]
    assert changes[1].data == {"host": "h1"} and "h2 -> h1" in changes[1].detail


def test_an_unpinned_node_on_another_host_stays_where_it_is():
    n = replace(node(), pinned=False)
    assert plan(intent(n), observed(n, host="h2")) == []


def test_uptv2_follows_the_dpu_and_a_pvrdma_adapter_off_the_tenants_port_group_goes():
    n = node(uptv2=True)
    foreign = ObservedNic(4001, "", "other", "uuid", kind="pvrdma", network="elsewhere")
    changes = plan(intent(n), observed(n, nics=(PRIMARY, foreign), pvrdma=((4001, "other"),), uptv2=((4000, False),)))
    assert kinds(changes) == ["power_off", "remove_pvrdma_nic", "set_uptv2", "power_on"]
    assert changes[2].data == {"key": 4000, "enabled": True}


def test_destroying_a_vm_says_which_devices_it_frees():
    n = node(passthrough=(GPU_A,))
    gone = observed(n, passthrough=((13000, GPU_A.pci_id),), vgpus=((13001, "grid_a100-20c"),))
    changes = plan(replace(intent(n), nodes=()), gone)
    assert str(changes[-1]) == "destroy_vm lab-ml-w01: frees DirectPath device 0000:af:00.0, vGPU grid_a100-20c"


def test_a_plan_that_would_add_a_gpu_to_a_running_vm_without_powering_it_off_is_refused():
    n = node(passthrough=(GPU_A,))
    have = observed(n)
    safe = plan(intent(n), have)
    check_adds_while_off(safe, have)  # the planner powers the VM off first
    unsafe = [c for c in safe if c.kind != ChangeKind.POWER_OFF]
    with pytest.raises(PreflightError, match="only be added while the VM is powered off"):
        check_adds_while_off(unsafe, have)
