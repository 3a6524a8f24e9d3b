"""Every cluster VM's NICs sit on its tenant's port group (or the declared management network) only."""

from dataclasses import replace

from pyVmomi import vim

from tests.vsphere.conftest import PF0, cluster_intent
from tests.vsphere.isolation import e1000_on, foreign_nics, nic_networks, reconfigure
from vsphere.plan.changes import ChangeKind
from vsphere.plan.specs import Adapter
from vsphere.reconcile.converge import converge, preview


def names_of(intent):
    return [node.name for node in intent.nodes]


def test_a_cluster_without_sriov_has_one_vmxnet3_per_vm_on_its_port_group_and_nothing_else(driver, names):
    intent = cluster_intent(names("c"), 3, vlan=410, pf=None)
    planned = preview(driver, intent)
    clone = next(c for c in planned if c.kind == ChangeKind.CLONE_VM)
    assert "without the template's NICs (VirtualE1000 on VM Network)" in clone.detail
    converge(driver, intent)
    nics = nic_networks(driver, names_of(intent))
    assert all(found == [("VirtualVmxnet3", intent.portgroup)] for found in nics.values()), nics
    assert foreign_nics(driver, names_of(intent), {intent.portgroup}) == []
    assert preview(driver, intent) == []


def test_an_sriov_cluster_has_its_primary_adapter_and_its_vf_on_the_tenant_port_group(driver, names):
    intent = cluster_intent(names("c"), 2, vlan=411, pf=PF0)
    converge(driver, intent)
    for found in nic_networks(driver, names_of(intent)).values():
        assert sorted(found) == [("VirtualSriovEthernetCard", intent.portgroup), ("VirtualVmxnet3", intent.portgroup)]


def test_a_nic_added_out_of_band_on_a_foreign_network_is_drift_and_removed(driver, names):
    intent = cluster_intent(names("c"), 2, vlan=412, pf=None)
    converge(driver, intent)
    victim = intent.nodes[0].name
    reconfigure(driver, victim, e1000_on(driver, "VM Network"))
    assert foreign_nics(driver, [victim], {intent.portgroup}) == [f"{victim}: VirtualE1000 on VM Network"]
    drift = [c for c in preview(driver, intent) if c.target == victim]
    assert [c.kind for c in drift] == [ChangeKind.POWER_OFF, ChangeKind.REMOVE_NIC, ChangeKind.POWER_ON]
    assert "not the tenant's network" in drift[1].detail
    converge(driver, intent)
    assert foreign_nics(driver, names_of(intent), {intent.portgroup}) == []
    assert preview(driver, intent) == []


def test_a_primary_adapter_moved_to_another_network_is_put_back(driver, names):
    intent = cluster_intent(names("c"), 1, vlan=413, pf=None)
    converge(driver, intent)
    victim = intent.nodes[0].name
    vm = driver.snapshot("DC0").vm_mor(victim)
    (nic,) = [d for d in vm.config.hardware.device if isinstance(d, vim.vm.device.VirtualEthernetCard)]
    network = driver.snapshot("DC0").networks["VM Network"]
    nic.backing = vim.vm.device.VirtualEthernetCard.NetworkBackingInfo(deviceName="VM Network", network=network)
    reconfigure(driver, victim, vim.vm.device.VirtualDeviceSpec(operation="edit", device=nic))
    kinds = [c.kind for c in preview(driver, intent)]
    assert ChangeKind.REMOVE_NIC in kinds and ChangeKind.ADD_NIC in kinds
    converge(driver, intent)
    assert nic_networks(driver, [victim])[victim] == [("VirtualVmxnet3", intent.portgroup)]


def test_a_request_for_e1000e_gets_e1000e_as_its_primary_adapter(driver, names):
    intent = cluster_intent(names("c"), 1, vlan=414, pf=None)
    intent = replace(intent, nodes=tuple(replace(n, adapter=Adapter.E1000E) for n in intent.nodes))
    converge(driver, intent)
    assert nic_networks(driver, names_of(intent)) == {intent.nodes[0].name: [("VirtualE1000e", intent.portgroup)]}


def test_a_declared_management_network_gets_exactly_one_nic_and_nothing_else_is_tolerated(driver, names):
    intent = replace(cluster_intent(names("c"), 1, vlan=415, pf=None), management_network="VM Network")
    converge(driver, intent)
    victim = intent.nodes[0].name
    assert sorted(nic_networks(driver, [victim])[victim]) == [
        ("VirtualVmxnet3", "VM Network"), ("VirtualVmxnet3", intent.portgroup),
    ]  # fmt: skip
    reconfigure(driver, victim, e1000_on(driver, "VM Network"))  # a second one is drift too
    converge(driver, intent)
    assert foreign_nics(driver, [victim], {intent.portgroup, "VM Network"}) == []
    assert len(nic_networks(driver, [victim])[victim]) == 2
