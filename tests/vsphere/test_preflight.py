"""Enclave refuses what real vSphere refuses but the simulator accepts, before any change."""

from dataclasses import replace

import pytest

from tests.vsphere.conftest import HOST_NAMES, PF0, PF1, cluster_intent
from vsphere.errors import PreflightError
from vsphere.plan import preflight
from vsphere.plan.specs import NodeIntent, Observed, PhysicalFunction
from vsphere.reconcile.converge import converge

INVENTORY = {
    host: {
        PF0: PhysicalFunction(host, PF0, "vmnic2", num_vfs=8, max_vfs=16),
        PF1: PhysicalFunction(host, PF1, "vmnic3", num_vfs=7, max_vfs=16),
    }
    for host in HOST_NAMES
}


def node(**overrides) -> NodeIntent:
    values = {"name": "n", "marker": "c/n", "host": HOST_NAMES[0], "cpus": 2, "memory_mb": 1024}
    values.update(overrides)
    return NodeIntent(**values)


def test_it_rejects_an_unknown_pf_on_the_host():
    with pytest.raises(PreflightError, match="not an SR-IOV function"):
        preflight.check_cluster(cluster_intent("p", 1, 500, pf="0000:99:00.0"), INVENTORY)


def test_it_rejects_sriov_without_full_memory_reservation():
    intent = cluster_intent("p", 1, 500)
    intent = replace(intent, nodes=(replace(intent.nodes[0], reserve_memory=False),))
    with pytest.raises(PreflightError, match="memory reserved"):
        preflight.check_cluster(intent, INVENTORY)


def test_it_rejects_more_vfs_than_the_pf_has():
    nodes = tuple(node(name=f"n{i}", marker=f"c/n{i}", sriov_pfs=(PF1,)) for i in range(8))
    intent = replace(cluster_intent("p", 0, 500), nodes=nodes)
    with pytest.raises(PreflightError, match="has 7 VFs"):
        preflight.check_cluster(intent, INVENTORY)


def test_it_counts_vfs_used_by_other_clusters():
    observed = Observed(vf_users={(HOST_NAMES[0], PF0): [f"other{i}" for i in range(7)]})
    nodes = (node(sriov_pfs=(PF0,)), node(name="m", marker="c/m", sriov_pfs=(PF0,)))
    intent = replace(cluster_intent("p", 0, 500), nodes=nodes)
    with pytest.raises(PreflightError, match="7 in use elsewhere"):
        preflight.check_cluster(intent, INVENTORY, observed)


def test_a_valid_cluster_passes_and_a_full_pf_exactly_fits():
    nodes = tuple(node(name=f"n{i}", marker=f"c/n{i}", sriov_pfs=(PF0,)) for i in range(8))
    preflight.check_cluster(replace(cluster_intent("p", 0, 500), nodes=nodes), INVENTORY)


def test_converge_refuses_before_sending_any_request(vcsim, driver, names):
    intent = cluster_intent(names("c"), 2, vlan=501, pf="0000:99:00.0")
    before = vcsim.stats()
    with pytest.raises(PreflightError):
        converge(driver, intent, inventory=INVENTORY)
    assert vcsim.stats() == before


def test_it_refuses_hot_adding_sriov_to_a_running_vm(vcsim, driver, names):
    intent = cluster_intent(names("c"), 1, vlan=502)
    driver.switches.ensure("DC0", intent.dvs_name, intent.dvs_marker, HOST_NAMES, "vmnic2")
    driver.portgroups.ensure("DC0", intent.dvs_name, intent.portgroup, intent.portgroup_marker, 502)
    n = intent.nodes[0]
    driver.vms.ensure("DC0", "DC0_C0", "hpc-template", n)
    driver.vms.ensure_power("DC0", n.name, n.marker, True)
    reconfigs = vcsim.stats().get("ReconfigVM_Task", 0)
    with pytest.raises(PreflightError, match="powered off"):
        driver.devices.ensure_sriov_nic("DC0", n.name, n.marker, intent.portgroup, PF0)
    assert vcsim.stats().get("ReconfigVM_Task", 0) == reconfigs


def test_it_refuses_sriov_on_a_vm_without_reservation(driver, names):
    intent = cluster_intent(names("c"), 1, vlan=503)
    driver.switches.ensure("DC0", intent.dvs_name, intent.dvs_marker, HOST_NAMES, "vmnic2")
    driver.portgroups.ensure("DC0", intent.dvs_name, intent.portgroup, intent.portgroup_marker, 503)
    n = replace(intent.nodes[0], sriov_pfs=(), reserve_memory=False)
    driver.vms.ensure("DC0", "DC0_C0", "hpc-template", n)
    with pytest.raises(PreflightError, match="memory reserved"):
        driver.devices.ensure_sriov_nic("DC0", n.name, n.marker, intent.portgroup, PF0)


def test_it_refuses_an_unknown_pf_when_adding_a_nic(driver, names):
    intent = cluster_intent(names("c"), 1, vlan=504)
    driver.switches.ensure("DC0", intent.dvs_name, intent.dvs_marker, HOST_NAMES, "vmnic2")
    driver.portgroups.ensure("DC0", intent.dvs_name, intent.portgroup, intent.portgroup_marker, 504)
    n = intent.nodes[0]
    driver.vms.ensure("DC0", "DC0_C0", "hpc-template", n)
    with pytest.raises(PreflightError, match="not an SR-IOV function"):
        driver.devices.ensure_sriov_nic("DC0", n.name, n.marker, intent.portgroup, "0000:99:00.0")
