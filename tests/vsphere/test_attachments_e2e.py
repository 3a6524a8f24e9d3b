"""Issue 16 end to end (real worker, real simulator): every attachment the form offers is realized, read back from
vCenter, converged again without a change, repaired after drift and freed on scale-down and decommission."""

import datetime

import pytest
from django.utils import timezone
from pyVmomi import vim

from netpolicy.models import Address, AddressState
from tenants import realizers, services
from tenants.choices import ClusterState
from tests.vsphere.sites import ensure_pools
from vsphere import tasks
from vsphere.models import DeviceAssignment, NodePlacement, VCenter
from vsphere.naming import node_names
from vsphere.reconcile import discovery, previews
from vsphere.reconcile.converge import preview
from vsphere.reconcile.intent import cluster_intent
from vsphere.vim.driver import Driver

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]
S = ClusterState
SETTLE = 120
CHANGES = ("CloneVM_Task", "ReconfigVM_Task", "RelocateVM_Task", "PowerOnVM_Task", "PowerOffVM_Task")


@pytest.fixture
def site(own_vcsim, make_user):
    """The simulator's default devices, discovered: H0 vGPU A100s, H1 whole A100s and RoCE NICs (both PVRDMA-ready),
    H2 whole RoCE NICs and ENS, H3 a DPU offloading the switch and ENS."""
    ensure_pools()
    vcenter = VCenter.objects.create(
        name="sim", host="127.0.0.1", port=own_vcsim.port, username=own_vcsim.info["user"],
        password=own_vcsim.info["password"], ca_bundle=own_vcsim.ca_file, datacenter="DC0",
        compute_cluster="DC0_C0", template="hpc-template",
    )  # fmt: skip
    discovery.discover(vcenter)
    owner = make_user("pi")
    tenant = services.create_tenant("lab", "Lab", owner=owner)
    return vcenter, tenant, owner, make_user("site-admin", staff=True)


def requested(site, **fields):
    _vcenter, tenant, owner, _admin = site
    data = {
        "name": "c", "workload_class": "ml", "worker_count": 1, "vcpus_per_node": 2, "memory_gb_per_node": 4,
        "login_node": False, "interconnect": "none", "network_mode": "vlan", "data_path": "standard",
        "lease_end": timezone.localdate() + datetime.timedelta(days=30), "justification": "training",
    }  # fmt: skip
    return services.create_cluster(tenant, owner, {**data, **fields}, submit=True)


def approved(site, **fields):
    return services.approve_cluster(requested(site, **fields), site[3])


def settle(wait_for, cluster, *states):
    def reached():
        cluster.refresh_from_db()
        return cluster.state in states and cluster.observed_generation == cluster.generation

    assert wait_for(reached, SETTLE), f"{cluster.state}: {cluster.status_message}"


def read_back(sim, name) -> dict:
    """One VM's host and attachments, straight from the simulator's objects."""
    with Driver(sim.config()) as drv:
        snap = drv.snapshot("DC0")
        vm = snap.vm_mor(name)
        pg_names = {pg.key: n for n, (pg, _mor) in snap.portgroups.items()}
        host = vm.runtime.host
        switch = {p.dvsName: p for p in host.config.network.proxySwitch or []}.get("enclave-sriov")
        found = {"host": host.name, "reserved": bool(vm.config.memoryReservationLockedToMax), "whole": [],
                 "vgpus": [], "pvrdma": [], "uptv2": [], "ens": bool(switch and switch.ensEnabled)}  # fmt: skip
        for dev in vm.config.hardware.device:
            backing = getattr(dev, "backing", None)
            if isinstance(backing, vim.vm.device.VirtualPCIPassthrough.DeviceBackingInfo):
                found["whole"].append(backing.id)
            elif isinstance(backing, vim.vm.device.VirtualPCIPassthrough.VmiopBackingInfo):
                found["vgpus"].append(backing.vgpu)
            elif isinstance(dev, vim.vm.device.VirtualVmxnet3Vrdma):
                found["pvrdma"].append(pg_names.get(dev.backing.port.portgroupKey))
            elif type(dev) is vim.vm.device.VirtualVmxnet3:
                found["uptv2"].append(bool(dev.uptv2Enabled))
        found["whole"].sort()
        return found


def vms(cluster) -> list[str]:
    return [name for _role, name in node_names(cluster)]


def assert_converged_again(sim, cluster, vcenter):
    """A second pass changes nothing: the plan is empty and the reconciler sends no change."""
    with Driver(sim.config()) as drv:
        assert preview(drv, cluster_intent(cluster, vcenter)) == []
    before = {k: sim.stats().get(k, 0) for k in CHANGES}
    assert tasks.reconcile_cluster.apply(args=(cluster.pk,)).get() == "ready"
    assert {k: sim.stats().get(k, 0) for k in CHANGES} == before


def repair(wait_for, cluster, change) -> str:
    """Change vCenter out of band, let the drift check notice it and the worker put it right."""
    change()
    assert tasks.check_drift() == 1
    cluster.refresh_from_db()
    summary = cluster.status_message
    settle(wait_for, cluster, S.READY)
    return summary


def reconfigure(sim, name, *device_changes):
    with Driver(sim.config()) as drv:
        vm = drv.snapshot("DC0").vm_mor(name)
        drv.wait(vm.ReconfigVM_Task(vim.vm.ConfigSpec(deviceChange=list(device_changes))), f"edit {name}")


def device_of(sim, name, kind, backing=None):
    with Driver(sim.config()) as drv:
        devices = drv.snapshot("DC0").vm_mor(name).config.hardware.device
    return next(d for d in devices if type(d) is kind and (backing is None or isinstance(d.backing, backing)))


def test_pvrdma_adapters_are_realized_on_prepared_hosts_repaired_and_released(celery_worker, site, own_vcsim, wait_for):
    vcenter = site[0]
    cluster = approved(site, workload_class="parallel-distributed", interconnect="pvrdma")
    settle(wait_for, cluster, S.READY)
    held = {(a.node_name, a.nic): a.address for a in Address.objects.filter(cluster=cluster)}
    for name in vms(cluster):  # the manager and the worker: one PVRDMA adapter each, on the tenant's port group
        found = read_back(own_vcsim, name)
        assert found["pvrdma"] == ["enclave-lab-vlan120"] and found["reserved"], found
        assert found["host"] in ("DC0_C0_H0", "DC0_C0_H1"), "only these hosts have the PVRDMA prerequisites"
        assert (name, "pvrdma") in held
    assert_converged_again(own_vcsim, cluster, vcenter)

    worker = vms(cluster)[-1]
    adapter = device_of(own_vcsim, worker, vim.vm.device.VirtualVmxnet3Vrdma)
    summary = repair(wait_for, cluster, lambda: reconfigure(
        own_vcsim, worker, vim.vm.device.VirtualDeviceSpec(operation="remove", device=adapter)))  # fmt: skip
    assert "add_pvrdma_nic" in summary
    assert read_back(own_vcsim, worker)["pvrdma"] == ["enclave-lab-vlan120"]

    services.decommission_cluster(cluster, site[2])
    settle(wait_for, cluster, S.RETIRED)
    assert not NodePlacement.objects.filter(cluster=cluster).exists()
    assert set(Address.objects.filter(cluster=cluster).values_list("state", flat=True)) == {AddressState.COOLING}


def test_whole_gpus_and_a_whole_roce_nic_are_passed_through_repaired_and_freed(
    celery_worker, site, own_vcsim, wait_for
):
    vcenter = site[0]
    cluster = approved(site, gpu_mode="passthrough", gpus_per_worker=2, interconnect="directpath")
    settle(wait_for, cluster, S.READY)
    manager, worker = vms(cluster)
    held = {}
    for row in DeviceAssignment.objects.filter(cluster=cluster).select_related("device__host"):
        held.setdefault(row.node_name, []).append((row.device.host.name, row.device.kind, row.device.pci_id))
    assert sorted(held[worker]) == [("DC0_C0_H1", "gpu", "0000:af:00.0"), ("DC0_C0_H1", "gpu", "0000:b0:00.0"),
                                    ("DC0_C0_H1", "network", "0000:d8:00.0")]  # fmt: skip
    for name in (manager, worker):  # what vCenter shows is exactly what PostgreSQL holds
        found = read_back(own_vcsim, name)
        assert found["host"] == held[name][0][0] and found["reserved"]
        assert found["whole"] == sorted(pci for _host, _kind, pci in held[name])
    assert_converged_again(own_vcsim, cluster, vcenter)

    access = {n["name"]: n["devices"] for n in realizers.for_cluster(cluster).observe(cluster).nodes}
    assert access[worker] == ["GPU 0000:af:00.0 (NVIDIA A100-PCIE-40GB)", "GPU 0000:b0:00.0 (NVIDIA A100-PCIE-40GB)",
                              "NIC 0000:d8:00.0 (MT2892 Family [ConnectX-6 Dx])"]  # fmt: skip
    gpu = device_of(own_vcsim, worker, vim.vm.device.VirtualPCIPassthrough)
    summary = repair(wait_for, cluster, lambda: reconfigure(
        own_vcsim, worker, vim.vm.device.VirtualDeviceSpec(operation="remove", device=gpu)))  # fmt: skip
    assert "add_passthrough" in summary
    assert read_back(own_vcsim, worker)["whole"] == sorted(pci for _host, _kind, pci in held[worker])

    services.decommission_cluster(cluster, site[2])
    settle(wait_for, cluster, S.RETIRED)
    assert not DeviceAssignment.objects.filter(cluster=cluster).exists()


def test_the_plan_preview_before_approval_names_each_device_and_takes_none(site):
    cluster = requested(site, gpu_mode="passthrough", gpus_per_worker=2, interconnect="directpath")
    vcenter, changes, error = previews.dry_run(cluster)
    assert (vcenter, error) == ("sim", "")
    planned = {(c.kind.value, c.target, c.detail) for c in changes}
    gpu = "GPU 0000:af:00.0 (NVIDIA A100-PCIE-40GB) on DC0_C0_H1 (DirectPath I/O)"
    nic = "NIC 0000:d8:00.0 (MT2892 Family [ConnectX-6 Dx]) on DC0_C0_H2 (DirectPath I/O)"
    assert {("add_passthrough", "lab-c-w01", gpu), ("add_passthrough", "lab-c-mgr", nic)} <= planned
    assert not DeviceAssignment.objects.exists() and not NodePlacement.objects.exists()


def test_vgpus_are_realized_per_worker_and_freed_on_scale_down(celery_worker, site, own_vcsim, wait_for):
    vcenter, _tenant, owner, _admin = site
    cluster = approved(site, gpu_mode="vgpu", gpus_per_worker=1, vgpu_profile="grid_a100-20c", worker_count=2)
    settle(wait_for, cluster, S.READY)
    _manager, first, second = vms(cluster)
    for name in (first, second):
        found = read_back(own_vcsim, name)
        assert (found["host"], found["vgpus"], found["reserved"]) == ("DC0_C0_H0", ["grid_a100-20c"], True)
    assert read_back(own_vcsim, _manager)["vgpus"] == []
    assert_converged_again(own_vcsim, cluster, vcenter)

    cluster = services.resize_cluster(cluster, owner, worker_count=1)
    settle(wait_for, cluster, S.READY)
    with Driver(own_vcsim.config()) as drv:
        assert second not in drv.snapshot("DC0").vms
    assert list(DeviceAssignment.objects.filter(cluster=cluster).values_list("node_name", flat=True)) == [first]

    services.decommission_cluster(cluster, owner)
    settle(wait_for, cluster, S.RETIRED)
    assert not DeviceAssignment.objects.filter(cluster=cluster).exists()


def test_dpu_offload_turns_uptv2_on_and_a_node_moved_off_its_dpu_host_is_moved_back(
    celery_worker, site, own_vcsim, wait_for
):
    vcenter = site[0]
    cluster = approved(site, data_path="dpu")
    settle(wait_for, cluster, S.READY)
    manager, worker = vms(cluster)
    for name in (manager, worker):
        assert read_back(own_vcsim, name) | {"reserved": None} == {
            "host": "DC0_C0_H3", "reserved": None, "whole": [], "vgpus": [], "pvrdma": [], "uptv2": [True],
            "ens": True,
        }  # fmt: skip
    assert_converged_again(own_vcsim, cluster, vcenter)

    def move_and_switch_off():
        with Driver(own_vcsim.config()) as drv:
            snap = drv.snapshot("DC0")
            vm = snap.vm_mor(worker)
            drv.wait(vm.RelocateVM_Task(vim.vm.RelocateSpec(host=snap.hosts["DC0_C0_H0"])), "move out of band")
        nic = device_of(own_vcsim, manager, vim.vm.device.VirtualVmxnet3)
        nic.uptv2Enabled = False
        reconfigure(own_vcsim, manager, vim.vm.device.VirtualDeviceSpec(operation="edit", device=nic))

    summary = repair(wait_for, cluster, move_and_switch_off)
    assert "relocate_vm" in summary and "set_uptv2" in summary
    assert read_back(own_vcsim, worker)["host"] == "DC0_C0_H3"
    assert read_back(own_vcsim, manager)["uptv2"] == [True]


def test_the_enhanced_data_path_places_every_node_on_a_host_whose_switch_runs_it(
    celery_worker, site, own_vcsim, wait_for
):
    cluster = approved(site, data_path="enhanced", login_node=True)
    settle(wait_for, cluster, S.READY)
    for name in vms(cluster):
        found = read_back(own_vcsim, name)
        assert found["ens"] and found["host"] in ("DC0_C0_H2", "DC0_C0_H3") and found["uptv2"] == [False], found
    placed = dict(NodePlacement.objects.filter(cluster=cluster).values_list("node_name", "host__name"))
    assert placed == {name: read_back(own_vcsim, name)["host"] for name in vms(cluster)}
    assert_converged_again(own_vcsim, cluster, site[0])
