"""The batched converge path against the simulator: create, re-run, drift, scale, decommission."""

from dataclasses import replace

from pyVmomi import vim

from tests.vsphere.conftest import HOST_NAMES, PF0, cluster_intent
from tests.vsphere.isolation import reconfigure
from vsphere.plan import vf_mac
from vsphere.plan.changes import ChangeKind
from vsphere.plan.specs import HPC_MTU, PowerState
from vsphere.reconcile.converge import converge, preview


def test_a_4_node_sriov_cluster_converges_with_nics_reservation_and_mtu(driver, names):
    intent = cluster_intent(names("c"), 4, vlan=400)
    converge(driver, intent)
    observed = driver.observe(intent)
    assert observed.dvs.mtu == HPC_MTU and set(observed.dvs.hosts) == set(HOST_NAMES)
    assert observed.portgroup.vlan == 400
    for node in intent.nodes:
        vm = observed.vm(node.name)
        assert vm.power == PowerState.ON and vm.reservation_locked and vm.latency_high
        assert [(n.pf, n.portgroup_key) for n in vm.sriov_nics] == [(PF0, observed.portgroup.key)]
        assert vm.marker == node.marker and vm.host == node.host


def test_running_converge_twice_changes_nothing(driver, names, vcsim):
    intent = cluster_intent(names("c"), 3, vlan=401)
    converge(driver, intent)
    before = vcsim.stats()
    result = converge(driver, intent)
    after = vcsim.stats()
    assert result.changes == []
    mutating = [m for m in after if m.endswith("_Task") and after[m] != before.get(m, 0)]
    assert mutating == []


def test_preview_lists_exactly_what_converge_then_does(driver, names):
    intent = cluster_intent(names("c"), 2, vlan=402)
    planned = preview(driver, intent)
    assert [c.kind for c in planned][:3] == [
        ChangeKind.CREATE_DVS,
        ChangeKind.ADD_DVS_HOSTS,
        ChangeKind.CREATE_PORTGROUP,
    ]
    assert converge(driver, intent).changes == planned
    assert preview(driver, intent) == []


def test_drift_is_repaired_a_deleted_vm_a_removed_nic_a_lowered_reservation(driver, names):
    intent = cluster_intent(names("c"), 3, vlan=403)
    converge(driver, intent)
    n0, n1, n2 = intent.nodes
    driver.vms.destroy("DC0", n0.name, n0.marker)  # out-of-band: a VM deleted
    driver.vms.ensure_power("DC0", n1.name, n1.marker, False)
    driver.devices.remove_sriov_nic("DC0", n1.name, n1.marker, PF0)  # a NIC removed
    driver.vms.ensure("DC0", "DC0_C0", "hpc-template", replace(n2, reserve_memory=False, sriov_pfs=()))
    kinds = {c.kind for c in preview(driver, intent)}
    assert {ChangeKind.CLONE_VM, ChangeKind.ADD_SRIOV_NIC, ChangeKind.RECONFIGURE_VM} <= kinds
    converge(driver, intent)
    assert preview(driver, intent) == []


def test_scaling_down_destroys_only_the_extra_nodes(driver, names):
    intent = cluster_intent(names("c"), 3, vlan=404)
    converge(driver, intent)
    smaller = replace(intent, nodes=intent.nodes[:1])
    result = converge(driver, smaller)
    destroyed = sorted(c.target for c in result.changes if c.kind == ChangeKind.DESTROY_VM)
    assert destroyed == sorted(n.name for n in intent.nodes[1:])
    assert set(driver.observe(intent).vms) == {intent.nodes[0].name}


def test_decommission_leaves_no_vm_and_no_port_group_behind(driver, names):
    intent = cluster_intent(names("c"), 4, vlan=405)
    converge(driver, intent)
    converge(driver, replace(intent, decommission=True))
    snap = driver.snapshot("DC0")
    assert not [n for n in intent.nodes if n.name in snap.vms]
    assert intent.portgroup not in snap.portgroups
    assert converge(driver, replace(intent, decommission=True)).changes == []


def test_the_operation_log_callback_sees_every_step_start_and_finish(driver, names):
    intent = cluster_intent(names("c"), 2, vlan=406)
    seen = []
    converge(driver, intent, on_step=lambda key, step, status: seen.append((key, status)))
    started = {k for k, s in seen if s == "started"}
    done = {k for k, s in seen if s == "done"}
    assert started == done
    assert {f"clone:{n.name}" for n in intent.nodes} <= done


def test_each_vf_gets_the_mac_its_port_guid_needs_and_keeps_it_against_an_out_of_band_edit(driver, names):
    intent = cluster_intent(names("c"), 2, vlan=405)
    guids = [f"0x005056fffea0{i:04x}" for i in range(2)]
    nodes = tuple(replace(n, sriov_macs=(vf_mac.mac_for_guid(g),)) for n, g in zip(intent.nodes, guids, strict=True))
    intent = replace(intent, nodes=nodes)
    converge(driver, intent)
    observed = driver.observe(intent)
    assert [vf_mac.guid_for_mac(observed.vm(n.name).sriov_nics[0].mac) for n in nodes] == guids
    vf = next(d for d in driver.snapshot("DC0").vm_mor(nodes[0].name).config.hardware.device
              if isinstance(d, vim.vm.device.VirtualSriovEthernetCard))  # fmt: skip
    vf.addressType, vf.macAddress = "manual", "00:50:56:12:34:56"
    reconfigure(driver, nodes[0].name, vim.vm.device.VirtualDeviceSpec(operation="edit", device=vf))
    assert driver.observe(intent).vm(nodes[0].name).sriov_nics[0].mac == "00:50:56:12:34:56"
    kinds = [c.kind for c in preview(driver, intent) if c.target == nodes[0].name]
    assert ChangeKind.REMOVE_SRIOV_NIC in kinds and ChangeKind.ADD_SRIOV_NIC in kinds
    converge(driver, intent)
    assert vf_mac.guid_for_mac(driver.observe(intent).vm(nodes[0].name).sriov_nics[0].mac) == guids[0]
    assert preview(driver, intent) == []
