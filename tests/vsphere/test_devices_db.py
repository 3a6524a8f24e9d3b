"""GPUs, vGPU profiles and passthrough NICs in PostgreSQL: placement, capacity under concurrency, refusals."""

import threading

import pytest
from django.db import IntegrityError, connection, transaction

from core.errors import Conflict, NotOffered
from tenants import services
from tenants.choices import ClusterState
from tenants.models import VirtualCluster
from tests.vsphere.sites import device_site, gpu_cluster
from vsphere import devices
from vsphere.capabilities import site_offers
from vsphere.models import DeviceAssignment, PCIDevice, VFAssignment, VGPUProfile

pytestmark = pytest.mark.django_db
APPROVERS = 12


def lab(make_user, n: int):
    owner = make_user(f"pi-{n}")
    return services.create_tenant(f"lab-{n}", f"Lab {n}", owner=owner), owner


@pytest.mark.django_db(transaction=True)
def test_12_parallel_approvals_for_4_vgpu_instances_grant_exactly_4(make_user, reconcile_held):
    device_site()  # two A100s in vGPU mode: two grid_a100-20c each
    admin = make_user("site-admin", staff=True)
    clusters = [gpu_cluster(*lab(make_user, n), worker_count=1) for n in range(APPROVERS)]
    outcomes, barrier = [], threading.Barrier(APPROVERS)

    def approve(cluster):
        try:
            barrier.wait()
            services.approve_cluster(cluster, admin)
            outcomes.append("approved")
        except Conflict:
            outcomes.append("refused")
        finally:
            connection.close()

    threads = [threading.Thread(target=approve, args=(c,)) for c in clusters]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outcomes.count("approved") == 4 and outcomes.count("refused") == 8
    assert DeviceAssignment.objects.count() == 4
    approved = set(VirtualCluster.objects.filter(state=ClusterState.APPROVED).values_list("pk", flat=True))
    assert set(DeviceAssignment.objects.values_list("cluster_id", flat=True)) == approved


@pytest.mark.django_db(transaction=True)
def test_two_parallel_approvals_for_the_last_whole_gpu_grant_it_exactly_once(make_user, reconcile_held):
    device_site()  # esx-02: two whole A100s; a first cluster takes one
    admin = make_user("site-admin", staff=True)
    whole = {"gpu_mode": "passthrough", "vgpu_profile": "", "worker_count": 1}
    services.approve_cluster(gpu_cluster(*lab(make_user, 0), **whole), admin)
    rivals = [gpu_cluster(*lab(make_user, n), **whole) for n in (1, 2)]
    outcomes, barrier = {}, threading.Barrier(2)

    def approve(cluster):
        try:
            barrier.wait()
            services.approve_cluster(cluster, admin)
            outcomes[cluster.pk] = "approved"
        except Conflict as exc:
            outcomes[cluster.pk] = str(exc.detail)
        finally:
            connection.close()

    threads = [threading.Thread(target=approve, args=(c,)) for c in rivals]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    winners = [pk for pk, outcome in outcomes.items() if outcome == "approved"]
    (loser,) = set(outcomes) - set(winners)
    assert len(winners) == 1 and "now esx-02 lacks 1 whole GPU(s)" in outcomes[loser]
    assert DeviceAssignment.objects.filter(device__host__name="esx-02").count() == 2
    assert not DeviceAssignment.objects.filter(cluster=loser).exists()
    assert VirtualCluster.objects.get(pk=loser).state == ClusterState.ENDORSED


def test_a_worker_gets_its_whole_gpus_and_its_vf_on_one_host(make_user):
    device_site()
    tenant, owner = lab(make_user, 1)
    cluster = gpu_cluster(tenant, owner, worker_count=1, gpu_mode="passthrough", vgpu_profile="",
                          gpus_per_worker=2, interconnect="sriov-ib")  # fmt: skip
    services.approve_cluster(cluster, make_user("site-admin", staff=True))
    gpus = DeviceAssignment.objects.filter(cluster=cluster).select_related("device__host")
    assert sorted((a.node_name, a.device.host.name, a.device.pci_id) for a in gpus) == [
        ("lab-1-ml-w01", "esx-02", "0000:af:00.0"), ("lab-1-ml-w01", "esx-02", "0000:b0:00.0"),
    ]  # fmt: skip
    vf_hosts = dict(VFAssignment.objects.filter(cluster=cluster).values_list("node_name", "pf__host__name"))
    assert vf_hosts["lab-1-ml-w01"] == "esx-02" and "lab-1-ml-mgr" in vf_hosts


def test_a_third_whole_gpu_request_is_refused_naming_what_is_short(make_user):
    device_site()
    admin = make_user("site-admin", staff=True)
    first = gpu_cluster(*lab(make_user, 1), worker_count=1, gpu_mode="passthrough", vgpu_profile="", gpus_per_worker=2)
    services.approve_cluster(first, admin)
    second = gpu_cluster(*lab(make_user, 2), worker_count=1, gpu_mode="passthrough", vgpu_profile="")
    with pytest.raises(
        Conflict, match=r"lab-2-ml-w01 needs 1 whole GPU\(s\) on one host; now esx-02 lacks 1 whole GPU"
    ):
        services.approve_cluster(second, admin)
    assert VirtualCluster.objects.get(pk=second.pk).state == ClusterState.ENDORSED
    assert not DeviceAssignment.objects.filter(cluster=second).exists()


def test_vgpus_of_one_size_fill_a_gpu_before_another_size_takes_the_next(make_user):
    device_site()
    admin = make_user("site-admin", staff=True)
    small = gpu_cluster(*lab(make_user, 1), worker_count=1, vgpu_profile="grid_a100-10c")
    services.approve_cluster(small, admin)
    large = gpu_cluster(*lab(make_user, 2), worker_count=2)  # two 20c: the other GPU holds exactly two
    services.approve_cluster(large, admin)
    per_gpu = {}
    for a in DeviceAssignment.objects.select_related("device", "profile"):
        per_gpu.setdefault(a.device.pci_id, set()).add(a.profile.name)
    assert sorted(per_gpu.values(), key=sorted) == [{"grid_a100-10c"}, {"grid_a100-20c"}]
    third = gpu_cluster(*lab(make_user, 3), worker_count=1)  # a third 20c: no GPU can hold it
    with pytest.raises(Conflict, match="grid_a100-20c"):
        services.approve_cluster(third, admin)


def test_the_database_refuses_two_profiles_on_one_gpu_and_slots_beyond_the_profile(make_user):
    device_site()
    cluster = gpu_cluster(*lab(make_user, 1), submit=False)
    gpu = PCIDevice.objects.get(host__name="esx-01", pci_id="0000:af:00.0")
    p10, p20 = VGPUProfile.objects.get(name="grid_a100-10c"), VGPUProfile.objects.get(name="grid_a100-20c")
    DeviceAssignment.objects.create(device=gpu, profile=p20, slot=0, cluster=cluster, node_name="a")
    with pytest.raises(IntegrityError), transaction.atomic():  # time-sliced GPUs hold one profile size at a time
        DeviceAssignment.objects.create(device=gpu, profile=p10, slot=1, cluster=cluster, node_name="b")
    with pytest.raises(IntegrityError), transaction.atomic():  # a 40 GB A100 holds two 20c
        DeviceAssignment.objects.create(device=gpu, profile=p20, slot=2, cluster=cluster, node_name="c")
    with pytest.raises(IntegrityError), transaction.atomic():  # a shared GPU is never handed out whole
        DeviceAssignment.objects.create(device=gpu, profile=None, slot=0, cluster=cluster, node_name="d")
    with pytest.raises(IntegrityError), transaction.atomic():
        VGPUProfile.objects.filter(pk=p20.pk).update(per_gpu=0)


def test_the_database_refuses_a_whole_device_twice_and_a_vgpu_on_a_passthrough_gpu(make_user):
    device_site()
    cluster = gpu_cluster(*lab(make_user, 1), submit=False)
    whole = PCIDevice.objects.get(host__name="esx-02", pci_id="0000:af:00.0")
    DeviceAssignment.objects.create(device=whole, slot=0, cluster=cluster, node_name="a")
    with pytest.raises(IntegrityError), transaction.atomic():
        DeviceAssignment.objects.create(device=whole, slot=1, cluster=cluster, node_name="b")
    with pytest.raises(IntegrityError), transaction.atomic():
        profile = VGPUProfile.objects.get(name="grid_a100-20c")
        DeviceAssignment.objects.create(device=whole, profile=profile, slot=0, cluster=cluster, node_name="c")
    with pytest.raises(IntegrityError), transaction.atomic():  # an assigned device keeps its mode
        PCIDevice.objects.filter(pk=whole.pk).update(mode="vgpu")


def test_devices_of_removed_workers_and_of_a_retired_cluster_are_freed(make_user):
    device_site()
    admin = make_user("site-admin", staff=True)
    cluster = services.approve_cluster(gpu_cluster(*lab(make_user, 1), worker_count=2), admin)
    assert DeviceAssignment.objects.filter(cluster=cluster).count() == 2
    VirtualCluster.objects.filter(pk=cluster.pk).update(worker_count=1)  # what a converged scale-down leaves
    cluster.refresh_from_db()
    assert devices.release_unwanted(cluster) == 1
    assert devices.release(cluster) == 1


def test_a_request_for_an_option_the_site_lacks_is_refused_at_submit_with_the_reason(world, api):
    device_site()
    client = api(world.member_a)
    from tests.conftest import cluster_data

    body = cluster_data(tenant=world.tenant_a.pk, interconnect="sriov-roce", submit=True)
    response = client.post("/api/v1/clusters/", body, format="json")
    assert response.status_code == 409 and response.json()["code"] == "not_offered", response.content
    assert "no SR-IOV Ethernet physical functions" in response.json()["site"][0]
    body = cluster_data(tenant=world.tenant_a.pk, name="ens", data_path="enhanced", interconnect="pvrdma", submit=True)
    reasons = client.post("/api/v1/clusters/", body, format="json").json()["site"]
    assert reasons == [
        "The Slurm manager needs PVRDMA, ENS on one host; no host has it all (esx-01 lacks the enhanced data path; "
        "esx-02 lacks the enhanced data path; esx-03 lacks PVRDMA; esx-04 lacks PVRDMA, the enhanced data path).",
        "Each worker needs PVRDMA, ENS on one host; no host has it all (esx-01 lacks the enhanced data path; "
        "esx-02 lacks the enhanced data path; esx-03 lacks PVRDMA; esx-04 lacks PVRDMA, the enhanced data path).",
    ]
    assert not VirtualCluster.objects.filter(tenant=world.tenant_a).exists()


def test_pvrdma_is_explained_when_no_host_is_ready(make_user):
    from vsphere.models import HostFeatures

    vcenter = device_site()
    HostFeatures.objects.filter(host__name="esx-01").update(pvrdma_firewall=False)
    HostFeatures.objects.filter(host__name="esx-02").update(pvrdma_vmknic="")
    option = site_offers(vcenter).get("interconnect", "pvrdma")
    assert not option.available
    assert "esx-01: the pvrdma firewall rule is disabled" in option.detail
    assert "esx-02: no VMkernel adapter is tagged for PVRDMA (advanced option Net.PVRDMAVmknic)" in option.detail
    tenant, owner = lab(make_user, 1)
    with pytest.raises(NotOffered, match="Interconnect pvrdma: No host is ready for PVRDMA"):
        gpu_cluster(tenant, owner, interconnect="pvrdma", gpu_mode="none", gpus_per_worker=0, vgpu_profile="")


def test_an_option_the_site_lost_after_submit_is_refused_at_approval_with_the_reason_and_nothing_taken(make_user):
    from netpolicy.models import Segment
    from vsphere.models import HostFeatures, NodePlacement

    device_site()
    cluster = gpu_cluster(*lab(make_user, 1), interconnect="pvrdma", gpu_mode="none", gpus_per_worker=0,
                          vgpu_profile="")  # fmt: skip
    HostFeatures.objects.update(pvrdma_firewall=False)  # rediscovery: the pvrdma rule was closed meanwhile
    with pytest.raises(NotOffered, match="Interconnect pvrdma: No host is ready for PVRDMA"):
        services.approve_cluster(cluster, make_user("site-admin", staff=True))
    assert VirtualCluster.objects.get(pk=cluster.pk).state == ClusterState.ENDORSED
    assert not NodePlacement.objects.exists() and not Segment.objects.filter(tenant=cluster.tenant).exists()


def test_the_site_offers_name_free_capacity_per_option(make_user):
    offers = site_offers(device_site())
    assert offers.get("gpu_mode", "passthrough").detail == "2 of 2 whole GPU(s) free on esx-02"
    assert offers.get("interconnect", "directpath").detail == "2 of 2 whole RoCE NIC(s) free on esx-03"
    assert offers.get("data_path", "dpu").available and not offers.get("network_mode", "overlay").available
    assert {p["name"]: p["free"] for p in offers.vgpu_profiles} == {"grid_a100-10c": 8, "grid_a100-20c": 4}


def test_the_devices_page_shows_what_each_host_offers_and_who_holds_it(make_user, client):
    device_site()
    admin = make_user("site-admin", staff=True)
    services.approve_cluster(gpu_cluster(*lab(make_user, 1), worker_count=1), admin)
    client.force_login(admin)
    page = client.get("/vsphere/devices/").content.decode()
    assert "0000:af:00.0 NVIDIA A100-PCIE-40GB — NVIDIA vGPU (shared), 40 GB: 1/2 × grid_a100-20c" in page
    assert "the pvrdma firewall rule is disabled" in page and "dpu-0 (AMD Pensando DSC2-100, vmnic6)" in page
    assert "<td>grid_a100-20c</td><td>NVIDIA A100-PCIE-40GB</td><td>20 GB</td><td>2</td><td>2</td><td>3</td>" in page
