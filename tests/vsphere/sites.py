"""Database sites for the vsphere API and page tests: a vCenter row, hosts, PFs and clusters."""

from netpolicy.models import Pool
from tenants import services
from tests.conftest import service_data
from vsphere.models import Host, PhysicalFunction, VCenter, VFAssignment


def ensure_pools() -> None:
    """The site's VLAN and address pools, from which approvals give each tenant its own VLAN segment."""
    if not Pool.objects.filter(kind="vlan").exists():
        Pool.objects.create(name="vsphere-vlans", kind="vlan", first=120, last=199)
    if not Pool.objects.filter(kind="ipv4").exists():
        Pool.objects.create(name="vsphere-v4", kind="ipv4", cidr="10.240.0.0/16", default_prefix_length=24)


def make_vcenter(name="site", **overrides) -> VCenter:
    ensure_pools()
    values = {
        "name": name, "host": "127.0.0.1", "port": 9, "username": "u", "password": "p", "datacenter": "DC0",
        "compute_cluster": "DC0_C0", "template": "hpc-template",
    }  # fmt: skip
    values.update(overrides)
    return VCenter.objects.create(**values)


def sim_vcenter(vcsim, name="sim") -> VCenter:
    """A vCenter row for the shared simulator, TLS verified against its CA."""
    return make_vcenter(
        name, port=vcsim.port, username=vcsim.info["user"], password=vcsim.info["password"], ca_bundle=vcsim.ca_file
    )


def make_pf(host: Host, pci_id="0000:3b:00.0", max_vfs=8, firmware=16, **extra) -> PhysicalFunction:
    return PhysicalFunction.objects.create(
        host=host, pci_id=pci_id, pnic=extra.pop("pnic", "vmnic2"), firmware_num_vfs=firmware, max_vfs=max_vfs,
        **extra,
    )  # fmt: skip


def capacity_site() -> tuple[VCenter, list[PhysicalFunction]]:
    """Two hosts: esx-01 with PFs of 8 and 4 VFs, esx-02 with one of 6."""
    vcenter = make_vcenter()
    h1 = Host.objects.create(vcenter=vcenter, name="esx-01", compute_cluster="DC0_C0")
    h2 = Host.objects.create(vcenter=vcenter, name="esx-02", compute_cluster="DC0_C0")
    pfs = [
        make_pf(h1, "0000:3b:00.0", 8, 16),
        make_pf(h1, "0000:5e:00.0", 4, 8, pnic="vmnic4"),
        make_pf(h2, "0000:3b:00.0", 6, 8),
    ]
    return vcenter, pfs


def take_vfs(pf: PhysicalFunction, cluster, count: int) -> None:
    for slot in range(count):
        VFAssignment.objects.create(pf=pf, slot=slot, cluster=cluster, node_name=f"{cluster.name}-n{pf.pk}-{slot}")


def cluster_of(tenant, user, submit=False, **overrides):
    """An SR-IOV cluster request of the tenant (manager + 2 workers + login by default)."""
    return services.create_cluster(tenant, user, service_data(**overrides), submit=submit)


A100 = 0x20F1
NVIDIA = 0x10DE


def device_site(name="gpus") -> VCenter:
    """Four hosts: esx-01 two vGPU A100s (profiles 10c and 20c) and a PF; esx-02 two whole A100s and a PF;
    esx-03 two whole RoCE NICs and ENS; esx-04 a DPU with offload. esx-01 and esx-02 are ready for PVRDMA."""
    from vsphere.models import DPU, HostFeatures, PCIDevice, VGPUProfile

    vcenter = make_vcenter(name)
    hosts = [Host.objects.create(vcenter=vcenter, name=f"esx-0{i}", compute_cluster="DC0_C0") for i in range(1, 5)]
    gpu = {
        "kind": "gpu", "vendor_id": NVIDIA, "device_id": A100, "device_name": "NVIDIA A100-PCIE-40GB", "memory_gib": 40,
    }  # fmt: skip
    for pci in ("0000:af:00.0", "0000:b0:00.0"):
        PCIDevice.objects.create(host=hosts[0], pci_id=pci, mode="vgpu", **gpu)
        PCIDevice.objects.create(host=hosts[1], pci_id=pci, mode="passthrough", **gpu)
    for pci in ("0000:d8:00.0", "0000:d8:00.1"):
        PCIDevice.objects.create(host=hosts[2], pci_id=pci, kind="network", mode="passthrough", vendor_id=0x15B3,
                                 device_id=0x101D, device_name="ConnectX-6 Dx")  # fmt: skip
    for fb in (10, 20):
        VGPUProfile.objects.create(vcenter=vcenter, name=f"grid_a100-{fb}c", device_vendor_id=(A100 << 16) | NVIDIA,
                                   framebuffer_gib=fb, per_gpu=40 // fb, gpu_model="NVIDIA A100-PCIE-40GB")  # fmt: skip
    for host in hosts[:2]:
        make_pf(host, "0000:3b:00.0", 8, 16)
        HostFeatures.objects.create(host=host, pvrdma_vmknic="vmk0", pvrdma_vmknic_exists=True, pvrdma_firewall=True)
    HostFeatures.objects.create(host=hosts[2], ens=True, pvrdma_vmknic="vmk0", pvrdma_vmknic_exists=True)
    HostFeatures.objects.create(host=hosts[3], network_offload=True)
    DPU.objects.create(host=hosts[3], dpu_id="dpu-0", model="AMD Pensando DSC2-100", pnic="vmnic6")
    return vcenter


def gpu_cluster(tenant, user, submit=True, **overrides):
    """An ML cluster request: 2 workers with one vGPU grid_a100-20c each, no login node, no interconnect."""
    values = {
        "name": "ml", "workload_class": "ml", "worker_count": 2, "vcpus_per_node": 8, "memory_gb_per_node": 32,
        "login_node": False, "interconnect": "none", "gpu_mode": "vgpu", "gpus_per_worker": 1,
        "vgpu_profile": "grid_a100-20c",
    }  # fmt: skip
    values.update(overrides)
    return services.create_cluster(tenant, user, service_data(**values), submit=submit)
