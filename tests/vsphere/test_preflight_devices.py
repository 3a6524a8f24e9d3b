"""Device preflight: what real vSphere refuses but the simulator accepts is refused by Enclave first."""

import pytest
from pyVmomi import vim

from vsphere.errors import PreflightError
from vsphere.plan.device_preflight import check_device_add, node_problems, passthrough_conflicts, vgpu_mix_problems
from vsphere.plan.specs import HostDeviceInventory, NodeDevices, PassthroughDevice, PowerState

A100 = 0x20F110DE
INV = {
    "h0": HostDeviceInventory(
        "h0", shared_gpus=((A100, 2),), profiles=(("grid_a100-20c", A100, 2), ("grid_a100-10c", A100, 4)),
        pvrdma_problems=(),
    ),
    "h1": HostDeviceInventory("h1", passthrough=frozenset({"0000:af:00.0"}), pvrdma_problems=(
        "the pvrdma firewall rule is disabled",)),
    "h3": HostDeviceInventory("h3", ens=True, offload=True),
}  # fmt: skip
GPU = PassthroughDevice("0000:af:00.0", 0x10DE, 0x20F1, "sys-1", "GPU")


def test_a_pvrdma_adapter_on_a_host_without_the_prerequisites_is_refused_with_them():
    assert node_problems("n", "h1", NodeDevices(pvrdma=True), True, INV) == [
        "n: PVRDMA on h1 needs the host prepared: the pvrdma firewall rule is disabled"
    ]
    assert node_problems("n", "h0", NodeDevices(pvrdma=True), True, INV) == []


def test_devices_need_a_host_that_has_them_and_all_memory_reserved():
    problems = node_problems("n", "h0", NodeDevices(passthrough=(GPU,), uptv2=True, ens=True), False, INV)
    assert problems == [
        "n: 0000:af:00.0 is not enabled for DirectPath I/O on h0",
        "n: UPTv2 needs a DPU offloading the switch on h0, which has none",
        "n: the switch does not run the enhanced data path (ENS) on h0",
        "n: DirectPath I/O, vGPU and PVRDMA need all guest memory reserved",
    ]
    assert node_problems("n", "h1", NodeDevices(passthrough=(GPU,)), True, INV) == []
    assert node_problems("n", "h3", NodeDevices(uptv2=True, ens=True), False, INV) == []


def test_a_vgpu_profile_mix_the_gpus_cannot_hold_is_refused():
    # two 20c fill one A100, two 10c take the second: fits; one more 10c still fits (10c holds 4 per GPU)
    fits = [("h0", "a", ("grid_a100-20c", "grid_a100-20c")), ("h0", "b", ("grid_a100-10c",) * 3)]
    assert vgpu_mix_problems(fits, INV) == []
    # a third 20c needs a GPU of its own: three GPUs, the host has two
    too_many = [*fits, ("h0", "other-tenant", ("grid_a100-20c",))]
    assert vgpu_mix_problems(too_many, INV) == [
        "h0: 3 × grid_a100-10c and 3 × grid_a100-20c need 3 GPUs (one profile size per GPU in time-sliced mode); "
        "the host has 2"
    ]


def test_a_whole_device_goes_to_one_vm_only():
    assert passthrough_conflicts([("h1", "a", "0000:af:00.0")], {("h1", "0000:af:00.0"): ["b"]}) == [
        "a: 0000:af:00.0 on h1 is held by b"
    ]
    assert passthrough_conflicts([("h1", "a", "x"), ("h1", "b", "x")], {}) == ["b: x on h1 is held by a"]


def test_a_passthrough_device_is_never_added_to_a_running_vm():
    with pytest.raises(PreflightError, match="only be added while the VM is powered off"):
        check_device_add("n", PowerState.ON, True)
    check_device_add("n", PowerState.OFF, True)


def test_the_simulator_itself_accepts_a_passthrough_device_on_a_running_vm_and_any_vgpu_mix(driver, names):
    """Why the checks above exist: the simulator takes all of it; real vSphere does not."""
    snap = driver.snapshot("DC0")
    template = snap.vms["hpc-template"][1]
    pool, _hosts = snap.clusters["DC0_C0"]
    relocate = vim.vm.RelocateSpec(pool=pool, host=snap.hosts["DC0_C0_H0"])
    spec = vim.vm.CloneSpec(location=relocate, powerOn=False, template=False)
    vm = driver.wait(template.CloneVM_Task(folder=snap.vm_folder, name=names("vm"), spec=spec), "clone")
    driver.wait(vm.PowerOnVM_Task(), "power on")
    devices = [vim.vm.device.VirtualDeviceSpec(operation="add", device=vim.vm.device.VirtualPCIPassthrough(
        key=-1 - i, backing=vim.vm.device.VirtualPCIPassthrough.VmiopBackingInfo(vgpu=p)))
        for i, p in enumerate(["grid_a100-20c", "grid_a100-10c", "grid_a100-40c", "grid_a100-40c"])]  # fmt: skip
    driver.wait(vm.ReconfigVM_Task(vim.vm.ConfigSpec(deviceChange=devices)), "add vGPUs to a running VM")
    vgpus = [d for d in vm.config.hardware.device if isinstance(d, vim.vm.device.VirtualPCIPassthrough)]
    assert vm.runtime.powerState == "poweredOn" and len(vgpus) == 4  # removed by the names fixture
