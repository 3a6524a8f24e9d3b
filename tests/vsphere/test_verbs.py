"""Each ensure verb against the real simulator: first call changes, second call changes nothing."""

import pytest

from tests.vsphere.conftest import HOST_NAMES, PF0
from vsphere.errors import MarkerMismatchError, PermanentError
from vsphere.naming import node_marker
from vsphere.plan.specs import HPC_MTU, NodeIntent, PowerState

DC, CLUSTER, TEMPLATE = "DC0", "DC0_C0", "hpc-template"


def make_network(driver, names, vlan=300):
    dvs, pg = names("dvs"), names("pg")
    driver.switches.ensure(DC, dvs, "dvs:" + dvs, HOST_NAMES, "vmnic2")
    driver.portgroups.ensure(DC, dvs, pg, "seg:" + pg, vlan)
    return dvs, pg


def make_node(names, host=HOST_NAMES[1], **overrides) -> NodeIntent:
    name = names("vm")
    values = {
        "name": name,
        "marker": node_marker("cluster:x", name),
        "host": host,
        "cpus": 4,
        "memory_mb": 2048,
        "sriov_pfs": (PF0,),
        "latency_high": True,
    }
    values.update(overrides)
    return NodeIntent(**values)


def test_ensure_dvs_creates_once_with_mtu_9000_on_every_host(driver, names):
    dvs = names("dvs")
    assert driver.switches.ensure(DC, dvs, "dvs:1", HOST_NAMES, "vmnic2") is True
    assert driver.switches.ensure(DC, dvs, "dvs:1", HOST_NAMES, "vmnic2") is False
    observed = driver.snapshot(DC).switches[dvs][0]
    assert observed.mtu == HPC_MTU
    assert set(observed.hosts) == set(HOST_NAMES)
    assert observed.marker == "dvs:1"


def test_ensure_dvs_adds_only_missing_hosts(driver, names):
    dvs = names("dvs")
    driver.switches.ensure(DC, dvs, "dvs:2", HOST_NAMES[:2], "vmnic2")
    assert driver.switches.ensure(DC, dvs, "dvs:2", HOST_NAMES, "vmnic2") is True
    assert set(driver.snapshot(DC).switches[dvs][0].hosts) == set(HOST_NAMES)


def test_ensure_portgroup_creates_once_and_fixes_the_vlan(driver, names):
    dvs, pg = make_network(driver, names, vlan=301)
    assert driver.portgroups.ensure(DC, dvs, pg, "seg:" + pg, 301) is False
    assert driver.portgroups.ensure(DC, dvs, pg, "seg:" + pg, 302) is True
    assert driver.snapshot(DC).portgroups[pg][0].vlan == 302


def test_ensure_vm_clones_once_with_full_reservation_and_high_latency(driver, names):
    node = make_node(names)
    assert driver.vms.ensure(DC, CLUSTER, TEMPLATE, node) is True
    assert driver.vms.ensure(DC, CLUSTER, TEMPLATE, node) is False
    vm = driver.snapshot(DC).vms[node.name][0]
    assert (vm.cpus, vm.memory_mb, vm.host) == (4, 2048, node.host)
    assert vm.reservation_locked and vm.latency_high
    assert vm.marker == node.marker


def test_ensure_vm_reconfigures_a_changed_size_while_powered_off(driver, names):
    node = make_node(names, sriov_pfs=())
    driver.vms.ensure(DC, CLUSTER, TEMPLATE, node)
    bigger = NodeIntent(**{**node.__dict__, "cpus": 8})
    assert driver.vms.ensure(DC, CLUSTER, TEMPLATE, bigger) is True
    assert driver.snapshot(DC).vms[node.name][0].cpus == 8


def test_ensure_sriov_nic_adds_one_adapter_on_the_port_group(driver, names):
    _dvs, pg = make_network(driver, names)
    node = make_node(names)
    driver.vms.ensure(DC, CLUSTER, TEMPLATE, node)
    assert driver.devices.ensure_sriov_nic(DC, node.name, node.marker, pg, PF0) is True
    assert driver.devices.ensure_sriov_nic(DC, node.name, node.marker, pg, PF0) is False
    snap = driver.snapshot(DC)
    (nic,) = snap.vms[node.name][0].sriov_nics
    assert nic.pf == PF0
    assert nic.portgroup_key == snap.portgroups[pg][0].key


def test_ensure_power_switches_once(driver, names):
    node = make_node(names, sriov_pfs=())
    driver.vms.ensure(DC, CLUSTER, TEMPLATE, node)
    assert driver.vms.ensure_power(DC, node.name, node.marker, True) is True
    assert driver.vms.ensure_power(DC, node.name, node.marker, True) is False
    assert driver.snapshot(DC).vms[node.name][0].power == PowerState.ON
    assert driver.vms.ensure_power(DC, node.name, node.marker, False) is True
    assert driver.vms.ensure_power(DC, node.name, node.marker, False) is False


def test_removals_undo_everything_and_are_idempotent(driver, names):
    dvs, pg = make_network(driver, names)
    node = make_node(names)
    driver.vms.ensure(DC, CLUSTER, TEMPLATE, node)
    driver.devices.ensure_sriov_nic(DC, node.name, node.marker, pg, PF0)
    assert driver.devices.remove_sriov_nic(DC, node.name, node.marker, PF0) is True
    assert driver.devices.remove_sriov_nic(DC, node.name, node.marker, PF0) is False
    driver.vms.ensure_power(DC, node.name, node.marker, True)
    assert driver.vms.destroy(DC, node.name, node.marker) is True
    assert driver.vms.destroy(DC, node.name, node.marker) is False
    assert driver.portgroups.remove(DC, pg, "seg:" + pg) is True
    assert driver.portgroups.remove(DC, pg, "seg:" + pg) is False
    assert driver.switches.remove(DC, dvs, "dvs:" + dvs) is True
    assert driver.switches.remove(DC, dvs, "dvs:" + dvs) is False
    snap = driver.snapshot(DC)
    assert node.name not in snap.vms and pg not in snap.portgroups and dvs not in snap.switches


def test_it_refuses_a_switch_with_a_foreign_marker(driver, names):
    dvs = names("dvs")
    driver.switches.ensure(DC, dvs, "dvs:theirs", HOST_NAMES[:1], "vmnic2")
    with pytest.raises(MarkerMismatchError):
        driver.switches.ensure(DC, dvs, "dvs:ours", HOST_NAMES, "vmnic2")
    with pytest.raises(MarkerMismatchError):
        driver.switches.remove(DC, dvs, "dvs:ours")
    assert driver.snapshot(DC).switches[dvs][0].hosts == (HOST_NAMES[0],)


def test_it_refuses_a_port_group_with_a_foreign_marker(driver, names):
    dvs, pg = make_network(driver, names, vlan=310)
    with pytest.raises(MarkerMismatchError):
        driver.portgroups.ensure(DC, dvs, pg, "seg:someone-else", 311)
    assert driver.snapshot(DC).portgroups[pg][0].vlan == 310


def test_it_refuses_a_vm_with_a_foreign_marker(driver, names):
    node = make_node(names, sriov_pfs=())
    driver.vms.ensure(DC, CLUSTER, TEMPLATE, node)
    impostor = NodeIntent(**{**node.__dict__, "marker": "cluster:other/" + node.name, "cpus": 1})
    with pytest.raises(MarkerMismatchError):
        driver.vms.ensure(DC, CLUSTER, TEMPLATE, impostor)
    with pytest.raises(MarkerMismatchError):
        driver.vms.destroy(DC, node.name, impostor.marker)
    assert driver.snapshot(DC).vms[node.name][0].cpus == 4


def test_it_refuses_a_vm_without_a_marker_unless_the_journal_adopts_it(driver, names):
    node = make_node(names, sriov_pfs=())
    driver.vms.ensure(DC, CLUSTER, TEMPLATE, node)
    # Setup: what a worker killed between clone and marker leaves on the simulator.
    unmarked = NodeIntent(**{**node.__dict__, "marker": ""})
    vm_mor = driver.snapshot(DC).vm_mor(node.name)
    driver.wait(driver.vms.start_reconfigure(vm_mor, driver.vms.spec(unmarked, marker=True), node.name), "strip")
    assert driver.snapshot(DC).vms[node.name][0].marker == ""
    with pytest.raises(MarkerMismatchError):
        driver.vms.ensure(DC, CLUSTER, TEMPLATE, node)
    assert driver.vms.ensure(DC, CLUSTER, TEMPLATE, node, adopt=True) is True
    assert driver.snapshot(DC).vms[node.name][0].marker == node.marker


def test_missing_template_is_a_permanent_error(driver, names):
    with pytest.raises(PermanentError):
        driver.vms.ensure(DC, CLUSTER, "no-such-template", make_node(names))


def test_query_config_target_reports_the_hosts_sriov_functions(driver):
    pfs = driver.devices.config_target_sriov(DC, CLUSTER, HOST_NAMES[0])
    assert {(pf["pci_id"], pf["pnic"]) for pf in pfs} == {(PF0, "vmnic2"), ("0000:3b:00.1", "vmnic3")}
    discovered = driver.snapshot(DC).pfs[HOST_NAMES[0]]
    assert discovered[PF0].num_vfs == 8 and discovered[PF0].max_vfs == 16
