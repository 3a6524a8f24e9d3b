"""Tenant A's vSphere objects for the access matrix (tests/test_access_matrix.py)."""

from tests.vsphere.sites import ensure_pools
from vsphere.models import DeviceAssignment, Host, PCIDevice, PhysicalFunction, VCenter, VFAssignment, VGPUProfile

CLOSED_PORT = 9  # nothing listens: plan previews in the matrix fail fast with a refused connection


def add_vsphere_objects(objects) -> None:
    """A vCenter with one host and PF, and one VF held by tenant A's cluster."""
    ensure_pools()
    objects.vcenter = VCenter.objects.create(
        name="matrix", host="127.0.0.1", port=CLOSED_PORT, username="u", password="p", datacenter="DC0",
        compute_cluster="DC0_C0", template="hpc-template",
    )  # fmt: skip
    objects.vsphere_host = Host.objects.create(vcenter=objects.vcenter, name="esx-01", compute_cluster="DC0_C0")
    objects.pf = PhysicalFunction.objects.create(
        host=objects.vsphere_host, pci_id="0000:3b:00.0", pnic="vmnic2", firmware_num_vfs=16, max_vfs=8
    )
    objects.vf_assignment_a = VFAssignment.objects.create(
        pf=objects.pf, slot=0, cluster=objects.cluster_a, node_name="tenant-a-mpi-1-mgr"
    )
    objects.pci_device = PCIDevice.objects.create(
        host=objects.vsphere_host, pci_id="0000:af:00.0", kind="gpu", mode="passthrough", vendor_id=0x10DE,
        device_id=0x20F1, device_name="NVIDIA A100-PCIE-40GB", memory_gib=40,
    )  # fmt: skip
    objects.vgpu_profile = VGPUProfile.objects.create(
        vcenter=objects.vcenter, name="grid_a100-20c", device_vendor_id=0x20F110DE, framebuffer_gib=20, per_gpu=2
    )
    objects.device_assignment_a = DeviceAssignment.objects.create(
        device=objects.pci_device, slot=0, cluster=objects.cluster_a, node_name="tenant-a-mpi-1-w01"
    )
