"""Tenant A's vSphere objects for the access matrix (tests/test_access_matrix.py)."""

from tests.vsphere.sites import ensure_pools
from vsphere.models import Host, PhysicalFunction, VCenter, VFAssignment

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
