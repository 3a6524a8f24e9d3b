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
