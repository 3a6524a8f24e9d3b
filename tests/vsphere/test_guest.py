"""Guest customization on the simulator: host name and fixed addresses per NIC, read back, drift repaired."""

from dataclasses import replace

from pyVmomi import vim

from tests.vsphere.conftest import PF0, cluster_intent
from vsphere.plan.changes import ChangeKind
from vsphere.plan.specs import GuestNetwork
from vsphere.reconcile.converge import converge, preview

GUEST = GuestNetwork(prefix_length=24, gateway="10.77.0.1", dns_servers=("10.0.0.53",), domain="lab.internal")


def addressed(intent, base: int):
    """The intent with a host name and a fixed address per NIC (as the IPAM hands them out)."""
    nodes = tuple(
        replace(node, host_name=f"n{i}", primary_ip=f"10.77.0.{base + 2 * i}",
                sriov_ips=(f"10.77.0.{base + 2 * i + 1}",) if node.sriov_pfs else ())
        for i, node in enumerate(intent.nodes)
    )  # fmt: skip
    return replace(intent, nodes=nodes, guest=GUEST)


def guest_of(driver, name):
    """What VMware Tools report, read straight from vCenter: host name, ipAddress, addresses per NIC."""
    vm = driver.snapshot("DC0").vm_mor(name)
    keys = {d.key: type(d).__name__.rsplit(".", 1)[-1] for d in vm.config.hardware.device}
    per_nic = {keys[n.deviceConfigId]: list(n.ipAddress) for n in vm.guest.net}
    return vm.guest.hostName, vm.guest.ipAddress, per_nic


def test_every_vm_reports_its_customized_host_name_and_addresses(driver, names):
    intent = addressed(cluster_intent(names("c"), 2, vlan=420, pf=PF0), base=10)
    clone = next(c for c in preview(driver, intent) if c.kind == ChangeKind.CLONE_VM)
    assert "customized: host name n0, 10.77.0.10, 10.77.0.11" in clone.detail
    converge(driver, intent)
    assert guest_of(driver, intent.nodes[0].name) == (
        "n0", "10.77.0.10", {"VirtualVmxnet3": ["10.77.0.10"], "VirtualSriovEthernetCard": ["10.77.0.11"]},
    )  # fmt: skip
    assert guest_of(driver, intent.nodes[1].name)[:2] == ("n1", "10.77.0.12")
    assert preview(driver, intent) == []


def test_a_guest_reporting_another_address_is_drift_and_is_customized_again(driver, names):
    intent = addressed(cluster_intent(names("c"), 1, vlan=421, pf=None), base=20)
    converge(driver, intent)
    name = intent.nodes[0].name
    vm = driver.snapshot("DC0").vm_mor(name)
    wrong = vim.vm.ConfigSpec(extraConfig=[vim.option.OptionValue(key="SET.guest.ipAddress", value="10.77.0.99")])
    driver.wait(vm.ReconfigVM_Task(wrong), "out of band")  # the simulator's way to make the guest report it
    drift = [c for c in preview(driver, intent) if c.target == name]
    assert [c.kind for c in drift] == [ChangeKind.POWER_OFF, ChangeKind.CUSTOMIZE_GUEST, ChangeKind.POWER_ON]
    assert "reports 10.77.0.99 (want 10.77.0.20)" in drift[1].detail
    converge(driver, intent)
    assert guest_of(driver, name)[1:] == ("10.77.0.20", {"VirtualVmxnet3": ["10.77.0.20"]})
    assert preview(driver, intent) == []


def test_a_vf_added_later_gets_its_address_by_customizing_again(driver, names):
    plain = addressed(cluster_intent(names("c"), 1, vlan=422, pf=None), base=30)
    converge(driver, plain)
    node = replace(plain.nodes[0], sriov_pfs=(PF0,), sriov_ips=("10.77.0.31",))
    kinds = [c.kind for c in preview(driver, replace(plain, nodes=(node,)))]
    assert ChangeKind.ADD_SRIOV_NIC in kinds and ChangeKind.CUSTOMIZE_GUEST in kinds
    converge(driver, replace(plain, nodes=(node,)))
    per_nic = guest_of(driver, node.name)[2]
    assert per_nic == {"VirtualVmxnet3": ["10.77.0.30"], "VirtualSriovEthernetCard": ["10.77.0.31"]}
