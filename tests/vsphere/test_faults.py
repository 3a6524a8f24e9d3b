"""Faults injected into the simulator surface as transient or permanent errors, as designed."""

import pytest

from tests.vsphere.conftest import HOST_NAMES, PF0, cluster_intent
from vsphere.errors import PermanentError, TransientError
from vsphere.reconcile.converge import converge, preview
from vsphere.vim.driver import Driver

TRANSIENT = ["TaskInProgress", "HostCommunication", "HostNotConnected", "Timedout", "SystemError"]
PERMANENT = ["InvalidArgument", "NotFound", "InvalidDeviceSpec", "NoPermission", "NotSupported"]
# Every kind of request the converge path sends, in the order a new cluster needs them.
STEPS = [
    "CreateDVS_Task",
    "ReconfigureDvs_Task",
    "AddDVPortgroup_Task",
    "CloneVM_Task",
    "ReconfigVM_Task",
    "PowerOnVM_Task",
]


class Journal:
    """The operation log's role here: remember, before sending, which clones were started."""

    def __init__(self):
        self.clones = frozenset()

    def __call__(self, key: str, step: str, status: str) -> None:
        if key.startswith("clone:") and status == "started":
            self.clones |= {key.removeprefix("clone:")}


@pytest.mark.parametrize("fault", TRANSIENT)
def test_transient_faults_are_classified_for_retry(vcsim, driver, names, fault):
    vcsim.inject("CreateDVS_Task", fault)
    with pytest.raises(TransientError) as raised:
        driver.switches.ensure("DC0", names("dvs"), "dvs:f", HOST_NAMES, "vmnic2")
    assert raised.value.fault == fault


@pytest.mark.parametrize("fault", PERMANENT)
def test_permanent_faults_are_surfaced(vcsim, driver, names, fault):
    vcsim.inject("CreateDVS_Task", fault)
    with pytest.raises(PermanentError) as raised:
        driver.switches.ensure("DC0", names("dvs"), "dvs:f", HOST_NAMES, "vmnic2")
    assert raised.value.fault == fault


@pytest.mark.parametrize("method", STEPS)
def test_a_transient_fault_at_any_step_retries_into_a_converged_cluster(vcsim, driver, names, method):
    intent = cluster_intent(names("c"), 2, vlan=600)
    vcsim.inject(method, "TaskInProgress")
    journal = Journal()
    with pytest.raises(TransientError):
        converge(driver, intent, on_step=journal)
    converge(driver, intent, adopt=journal.clones)  # the retry Celery would schedule
    assert preview(driver, intent) == []
    snap = driver.snapshot("DC0")
    assert sorted(n for n in snap.vms if n.startswith(intent.nodes[0].name[:-1])) == sorted(
        n.name for n in intent.nodes
    )
    for n in intent.nodes:
        assert [nic.pf for nic in snap.vms[n.name][0].sriov_nics] == [PF0]


@pytest.mark.parametrize("method", STEPS)
def test_a_permanent_fault_at_any_step_is_surfaced_with_its_step(vcsim, driver, names, method):
    intent = cluster_intent(names("c"), 2, vlan=601)
    vcsim.inject(method, "InvalidArgument")
    with pytest.raises(PermanentError) as raised:
        converge(driver, intent)
    assert raised.value.fault == "InvalidArgument"
    assert raised.value.step


def test_a_task_that_fails_inside_vcenter_is_reported_from_the_task_info(vcsim, driver, names):
    dvs = names("dvs")
    driver.switches.ensure("DC0", dvs, "dvs:t", HOST_NAMES, "vmnic2")
    snap = driver.snapshot("DC0")
    dvs_mor = snap.switches[dvs][1]
    task = driver.switches.start_add_hosts(dvs_mor, "", [snap.hosts[HOST_NAMES[0]]], "vmnic2")
    with pytest.raises(PermanentError) as raised:  # the host is already a member
        driver.wait(task, "re-add host")
    assert raised.value.fault == "AlreadyExists"


def test_a_wrong_password_is_permanent(vcsim):
    with pytest.raises(PermanentError) as raised:
        Driver(vcsim.config(password="wrong")).connect()
    assert raised.value.fault == "InvalidLogin"


def test_tls_verification_is_on_by_default_and_fails_without_the_ca(vcsim):
    with pytest.raises(PermanentError) as raised:
        Driver(vcsim.config(ca_bundle=None)).connect()
    assert raised.value.fault == "TLS"


def test_the_explicit_insecure_switch_skips_verification(vcsim):
    with Driver(vcsim.config(ca_bundle=None, insecure=True)) as drv:
        assert "DC0_C0" in drv.snapshot("DC0").clusters
