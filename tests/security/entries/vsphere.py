"""Abuse entries of the vsphere app: the vCenter and PF inventory is for site admins only."""

from tests.security.framework import Abuse, Ref

NOT_ADMINS = ("owner_a", "member_a", "owner_b", "anonymous", "node_b")
VCENTER = {
    "name": "mine",
    "host": "127.0.0.1",
    "port": 9,
    "username": "u",
    "password": "p",
    "password_file": "",
    "verify_tls": True,
    "ca_bundle": "",
    "insecure": False,
    "datacenter": "DC0",
    "compute_cluster": "DC0_C0",
    "template": "hpc-template",
    "dvs_name": "enclave-dvs",
    "uplink_pnic": "vmnic2",
    "management_network": "VM Network",
    "management_isolation": "shared by every tenant's VMs",
}
PF = {
    "host": Ref("vsphere_host"),
    "pci_id": "0000:5e:00.0",
    "pnic": "vmnic3",
    "model": "ConnectX-6",
    "port": 2,
    "link_type": "infiniband",
    "firmware_num_vfs": 16,
    "max_vfs": 8,
}


def add_objects(world) -> None:
    """A vCenter (nothing listens on its port) with one host and one PF."""
    from tests.vsphere.access_objects import CLOSED_PORT
    from tests.vsphere.sites import make_pf
    from vsphere.models import Host, VCenter

    world.vcenter = VCenter.objects.create(
        name="sec",
        host="127.0.0.1",
        port=CLOSED_PORT,
        username="u",
        password="p",
        datacenter="DC0",
        compute_cluster="DC0_C0",
        template="hpc-template",
    )
    world.vsphere_host = Host.objects.create(vcenter=world.vcenter, name="esx-sec", compute_cluster="DC0_C0")
    world.pf = make_pf(world.vsphere_host)


# fmt: off
ENTRIES = [
    Abuse("A tenant registers a vCenter", "vcenter-list", "post", body=VCENTER, attackers=NOT_ADMINS,
          refused=frozenset({403})),
    Abuse("A site admin's vCenter reads its password from a file outside the secrets directory", "vcenter-list",
          "post", body=VCENTER | {"password": "", "password_file": "/etc/shadow"}, attackers=("admin",),
          refused=frozenset({400})),
    Abuse("A site admin points the site's vCenter CA bundle outside the secrets directory", "vcenter-detail",
          "patch", target="vcenter", body={"ca_bundle": "../../../etc/ssl/private/key.pem"}, attackers=("admin",),
          refused=frozenset({400})),
    Abuse("A tenant points the site's vCenter elsewhere", "vcenter-detail", "patch", target="vcenter",
          body=VCENTER, attackers=NOT_ADMINS, refused=frozenset({403})),
    Abuse("A tenant replaces the site's vCenter", "vcenter-detail", "put", target="vcenter", body=VCENTER,
          attackers=NOT_ADMINS, refused=frozenset({403})),
    Abuse("A tenant deletes the site's vCenter", "vcenter-detail", "delete", target="vcenter",
          attackers=NOT_ADMINS, refused=frozenset({403})),
    Abuse("A tenant starts a discovery", "vcenter-discover", "post", target="vcenter", attackers=NOT_ADMINS,
          refused=frozenset({403})),
    Abuse("A management network put on a tenant's port group is refused even for site admins", "vcenter-detail",
          "patch", target="vcenter", body={"management_network": "enclave-sec-b-vlan300",
                                          "management_isolation": "trust me"},
          attackers=("admin",), refused=frozenset({400})),
    Abuse("A management network without its isolation stated is refused", "vcenter-detail", "patch",
          target="vcenter", body={"management_network": "VM Network", "management_isolation": ""},
          attackers=("admin",), refused=frozenset({400})),
    Abuse("A tenant adds an SR-IOV PF", "physicalfunction-list", "post", body=PF, attackers=NOT_ADMINS,
          refused=frozenset({403}), control="admin"),
    Abuse("A tenant raises a PF's VF count", "physicalfunction-detail", "patch", target="pf",
          body={k: v for k, v in PF.items() if k != "host"} | {"max_vfs": 15}, attackers=NOT_ADMINS,
          refused=frozenset({403}), control="admin"),
    Abuse("A tenant replaces a PF", "physicalfunction-detail", "put", target="pf",
          body={k: v for k, v in PF.items() if k != "host"}, attackers=NOT_ADMINS, refused=frozenset({403})),
    Abuse("A tenant deletes a PF", "physicalfunction-detail", "delete", target="pf", attackers=NOT_ADMINS,
          refused=frozenset({403}), control="admin"),
    Abuse("A tenant starts a discovery on the page", "vsphere:vcenter-discover", "post", target="vcenter",
          attackers=("owner_a", "member_a", "anonymous"), refused=frozenset({404})),
    Abuse("A tenant adds a PF on the page", "vsphere:pf-list", "post",
          body={k: v for k, v in PF.items()}, attackers=("owner_a", "member_a", "anonymous"),
          refused=frozenset({404}), control="admin"),
]
# fmt: on

PENDING: dict = {}

EXEMPT: dict = {}
