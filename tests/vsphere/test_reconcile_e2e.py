"""End to end with the real Celery worker, PostgreSQL, Redis and the vSphere simulator."""

import datetime

import pytest
from django.utils import timezone

from core import readiness
from netpolicy.models import Address, AddressState
from tenants import realizers, services
from tenants.choices import ClusterState
from tenants.models import VirtualCluster
from tests.vsphere.isolation import e1000_on, foreign_nics, nic_networks, reconfigure
from tests.vsphere.sites import ensure_pools
from vsphere import tasks
from vsphere.choices import StepStatus
from vsphere.models import OperationLog, VCenter, VFAssignment
from vsphere.naming import node_names
from vsphere.reconcile import discovery, previews
from vsphere.vim.driver import Driver

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]
S = ClusterState
SETTLE = 120  # seconds a reconcile may take on a loaded 2-core machine


@pytest.fixture
def site(own_vcsim):
    ensure_pools()
    vcenter = VCenter.objects.create(
        name="sim", host="127.0.0.1", port=own_vcsim.port, username=own_vcsim.info["user"],
        password=own_vcsim.info["password"], ca_bundle=own_vcsim.ca_file, datacenter="DC0",
        compute_cluster="DC0_C0", template="hpc-template",
    )  # fmt: skip
    discovery.discover(vcenter)
    return vcenter


def approved_cluster(make_user, workers=3, before_approval=lambda: None, **overrides):
    """Create, submit and approve; approval itself queues the vSphere reconciler on commit."""
    owner, admin = make_user("pi"), make_user("site-admin", staff=True)
    tenant = services.create_tenant("lab", "Lab", owner=owner)
    data = {
        "name": "mpi", "workload_class": "parallel-distributed", "worker_count": workers, "vcpus_per_node": 4,
        "memory_gb_per_node": 8, "login_node": False, "interconnect": "sriov-ib", "network_mode": "vlan",
        "data_path": "standard", "lease_end": timezone.localdate() + datetime.timedelta(days=30),
        "justification": "OpenFOAM",
    }  # fmt: skip
    cluster = services.create_cluster(tenant, owner, data | overrides, submit=True)
    before_approval()
    return services.approve_cluster(cluster, admin), owner


def settle(wait_for, cluster, *states):
    def reached():
        cluster.refresh_from_db()
        return cluster.state in states

    assert wait_for(reached, SETTLE), f"{cluster.state}: {cluster.status_message}"


def test_an_approved_4_node_sriov_cluster_becomes_ready_then_leaves_nothing(
    celery_worker, site, own_vcsim, make_user, wait_for
):
    cluster, owner = approved_cluster(make_user)  # manager + 3 workers, one VF each
    assert VFAssignment.objects.filter(cluster=cluster).count() == 4
    settle(wait_for, cluster, S.READY)
    assert cluster.observed_generation == cluster.generation
    with Driver(own_vcsim.config()) as drv:
        snap = drv.snapshot("DC0")
    pg = snap.portgroups["enclave-lab-vlan120"][0]
    assert snap.switches[site.dvs_name][0].mtu == 9000
    for _role, name in node_names(cluster):
        vm = snap.vms[name][0]
        assert vm.reservation_locked and [n.portgroup_key for n in vm.sriov_nics] == [pg.key]
    with Driver(own_vcsim.config()) as drv:
        vm_names = [name for _r, name in node_names(cluster)]
        assert foreign_nics(drv, vm_names, {"enclave-lab-vlan120"}) == []
    assert OperationLog.objects.filter(cluster=cluster, status=StepStatus.DONE).exists()

    services.decommission_cluster(cluster, owner)  # queues the reconciler on commit
    settle(wait_for, cluster, S.RETIRED)
    with Driver(own_vcsim.config()) as drv:
        snap = drv.snapshot("DC0")
    assert not [name for _r, name in node_names(cluster) if name in snap.vms]
    assert "enclave-lab-vlan120" not in snap.portgroups
    assert VFAssignment.objects.filter(cluster=cluster).count() == 0


def test_a_cluster_without_sriov_has_every_vm_on_its_tenant_port_group_only(
    celery_worker, site, own_vcsim, make_user, wait_for
):
    cluster, _owner = approved_cluster(
        make_user, workers=2, workload_class="high-throughput", interconnect="none", login_node=True
    )
    settle(wait_for, cluster, S.READY)
    vm_names = [name for _r, name in node_names(cluster)]
    with Driver(own_vcsim.config()) as drv:
        nics = nic_networks(drv, vm_names)
    assert len(nics) == 4 and all(found == [("VirtualVmxnet3", "enclave-lab-vlan120")] for found in nics.values())


def test_a_restarted_simulator_is_reported_then_the_cluster_recovers(
    celery_worker, site, own_vcsim, make_user, wait_for
):
    cluster, _owner = approved_cluster(make_user, workers=1, before_approval=own_vcsim.stop)
    assert wait_for(lambda: VirtualCluster.objects.get(pk=cluster.pk).status_message.startswith("Retrying"), SETTLE)
    own_vcsim.start()  # same port, empty inventory but the same hosts and PFs
    settle(wait_for, cluster, S.READY)


def test_a_permanent_fault_is_surfaced_as_error_with_its_message(celery_worker, site, own_vcsim, make_user, wait_for):
    own_vcsim.inject("CloneVM_Task", "InvalidArgument")
    cluster, _owner = approved_cluster(make_user, workers=1)
    settle(wait_for, cluster, S.ERROR)
    assert "InvalidArgument" in cluster.status_message


def test_a_transient_fault_is_retried_into_ready(celery_worker, site, own_vcsim, make_user, wait_for):
    own_vcsim.inject("ReconfigVM_Task", "TaskInProgress", count=2)
    cluster, _owner = approved_cluster(make_user, workers=1)
    settle(wait_for, cluster, S.READY)
    assert OperationLog.objects.filter(cluster=cluster, step__contains="retrying").exists()


def test_day_2_scale_up_then_remove_sriov_converges_and_frees_the_vfs(
    celery_worker, site, own_vcsim, make_user, wait_for
):
    cluster, owner = approved_cluster(make_user, workers=1)
    settle(wait_for, cluster, S.READY)
    services.resize_cluster(cluster, owner, worker_count=2)
    settle_generation(wait_for, cluster)
    assert VFAssignment.objects.filter(cluster=cluster).count() == 3
    with Driver(own_vcsim.config()) as drv:
        vms = drv.snapshot("DC0").vms
    assert all(len(vms[name][0].sriov_nics) == 1 for _r, name in node_names(cluster))
    assert Address.objects.filter(cluster=cluster, state=AddressState.ALLOCATED).count() == 6  # 3 VMs x 2 NICs
    services.resize_cluster(cluster, owner, interconnect="none")
    settle_generation(wait_for, cluster)
    assert VFAssignment.objects.filter(cluster=cluster).count() == 0
    # The VFs' addresses are released once the VFs are gone, and cool down before anyone gets them again.
    assert set(Address.objects.filter(cluster=cluster, nic="sriov").values_list("state", flat=True)) == {"cooling"}
    assert Address.objects.filter(cluster=cluster, state=AddressState.ALLOCATED).count() == 3
    with Driver(own_vcsim.config()) as drv:
        vms = drv.snapshot("DC0").vms
    assert not any(vms[name][0].sriov_nics for _r, name in node_names(cluster))


def settle_generation(wait_for, cluster):
    """Wait until the reconciler has realized the current generation and reports ready."""

    def done():
        cluster.refresh_from_db()
        return cluster.state == S.READY and cluster.observed_generation == cluster.generation

    assert wait_for(done, SETTLE), f"{cluster.state}: {cluster.status_message}"


def test_drift_marks_the_cluster_degraded_and_reconverges(celery_worker, site, own_vcsim, make_user, wait_for):
    cluster, _owner = approved_cluster(make_user, workers=1)
    settle(wait_for, cluster, S.READY)
    (_r, manager), (_r, victim) = node_names(cluster)
    with Driver(own_vcsim.config()) as drv:
        drv.vms.destroy("DC0", victim, drv.snapshot("DC0").vms[victim][0].marker)  # out of band
        reconfigure(drv, manager, e1000_on(drv, "VM Network"))  # a NIC on the shared network
    assert tasks.check_drift() == 1
    cluster.refresh_from_db()
    assert cluster.state in (S.DEGRADED, S.PROVISIONING, S.READY)
    settle(wait_for, cluster, S.READY)
    with Driver(own_vcsim.config()) as drv:
        assert victim in drv.snapshot("DC0").vms
        assert foreign_nics(drv, [manager, victim], {"enclave-lab-vlan120"}) == []


def test_a_degraded_cluster_whose_repair_was_lost_is_queued_again_and_one_still_waiting_is_left(
    celery_worker, site, own_vcsim, make_user, wait_for, redis_client
):
    cluster, _owner = approved_cluster(make_user, workers=1)
    settle(wait_for, cluster, S.READY)
    redis_client.delete(f"enclave:lease:{realizers.LEASE}:{cluster.pk}")  # as once the last run's lease ran out
    readiness.register("cluster", "test-partition", lambda c: ["an InfiniBand partition"] if c.pk == cluster.pk else [])
    try:
        services.set_observed(cluster, S.DEGRADED, "Waiting for an InfiniBand partition")  # vCenter converged
        assert tasks.check_drift() == 0  # left to what it waits for
    finally:
        readiness._CONDITIONS["cluster"].pop("test-partition")
    (_r, _manager), (_r, victim) = node_names(cluster)
    with Driver(own_vcsim.config()) as drv:  # drift whose repair was lost: degraded, never queued
        drv.vms.destroy("DC0", victim, drv.snapshot("DC0").vms[victim][0].marker)
    assert tasks.check_drift() == 1
    settle(wait_for, cluster, S.READY)
    with Driver(own_vcsim.config()) as drv:
        assert victim in drv.snapshot("DC0").vms


KILL_QUEUE = "vsphere-kill-test"


def start_worker(log_path):
    """A worker of our own on a private queue, so the session worker never takes these tasks."""
    import os
    import subprocess
    import sys

    from django.conf import settings

    env = dict(os.environ, ENCLAVE_DB_NAME=settings.DATABASES["default"]["NAME"], PYTHONUNBUFFERED="1")
    cmd = [sys.executable, "-m", "celery", "-A", "portal", "worker", "--pool=solo", "-Q", KILL_QUEUE,
           "--without-gossip", "--without-mingle", "-n", f"kill-{os.getpid()}-{log_path.stem}@%h"]  # fmt: skip
    out = open(log_path, "wb")  # noqa: SIM115 (closed with the process)
    proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    out.close()
    return proc


def kill(proc) -> None:
    import os
    import signal

    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


@pytest.fixture
def slow_site(vcsim_binary, tmp_path):
    """A simulator with vCenter-like delays, so a worker can be killed in the middle."""
    from tests.vsphere.conftest import Sim, free_port

    sim = Sim(workdir=tmp_path, port=free_port(), extra_args=("-profile", "vcenter")).start()
    ensure_pools()
    vcenter = VCenter.objects.create(
        name="slow", host="127.0.0.1", port=sim.port, username=sim.info["user"], password=sim.info["password"],
        ca_bundle=sim.ca_file, datacenter="DC0", compute_cluster="DC0_C0", template="hpc-template",
    )  # fmt: skip
    discovery.discover(vcenter)
    yield sim
    sim.stop()


def test_a_worker_killed_mid_reconcile_converges_without_duplicates(
    slow_site, reconcile_held, make_user, wait_for, tmp_path
):
    cluster, _owner = approved_cluster(make_user, workers=3)
    first = start_worker(tmp_path / "first.log")
    try:
        tasks.reconcile_cluster.apply_async((cluster.pk,), queue=KILL_QUEUE)
        clones = OperationLog.objects.filter(cluster=cluster, key__startswith="clone:", status=StepStatus.STARTED)
        assert wait_for(lambda: clones.count() == 4, SETTLE)
    finally:
        kill(first)  # SIGKILL while the clones run in vCenter
    second = start_worker(tmp_path / "second.log")
    try:
        tasks.reconcile_cluster.apply_async((cluster.pk,), queue=KILL_QUEUE)  # what redelivery does
        settle(wait_for, cluster, S.READY)
    finally:
        kill(second)
    with Driver(slow_site.config()) as drv:
        snap = drv.snapshot("DC0")
    ours = sorted(name for name in snap.vms if name.startswith("lab-mpi-"))
    assert ours == sorted(name for _r, name in node_names(cluster))
    assert all(len(snap.vms[name][0].sriov_nics) == 1 for name in ours)
    assert VFAssignment.objects.filter(cluster=cluster).count() == 4


def test_the_plan_preview_before_approval_lists_the_vsphere_changes(site, make_user):
    owner = make_user("pi")
    tenant = services.create_tenant("lab", "Lab", owner=owner)
    data = {
        "name": "mpi", "workload_class": "parallel-distributed", "worker_count": 2, "vcpus_per_node": 4,
        "memory_gb_per_node": 8, "login_node": True, "interconnect": "sriov-ib", "network_mode": "vlan",
        "data_path": "standard", "lease_end": timezone.localdate() + datetime.timedelta(days=30),
        "justification": "OpenFOAM",
    }  # fmt: skip
    cluster = services.create_cluster(tenant, owner, data, submit=True)
    vcenter, changes, error = previews.dry_run(cluster)  # what the queued plan job runs
    assert (vcenter, error) == (site.name, "")
    lines = [str(change) for change in changes]
    assert lines[0].startswith("create_dvs") and any(line.startswith("create_portgroup") for line in lines)
    assert sum(line.startswith("clone_vm") for line in lines) == 4
    assert sum(line.startswith("add_sriov_nic") for line in lines) == 3  # not the login node
    assert VFAssignment.objects.count() == 0  # preview takes nothing


def test_the_demo_command_registers_the_simulator_and_discovers_its_pfs(own_vcsim):
    from django.core.management import call_command

    call_command("vsphere_register_sim", str(own_vcsim.workdir / "ready.json"))
    vcenter = VCenter.objects.get(name="demo-sim")
    assert vcenter.verify_tls and not vcenter.insecure and vcenter.ca_bundle == own_vcsim.ca_file
    assert vcenter.hosts.count() == 4
    assert {pf.pci_id for pf in vcenter.hosts.first().pfs.all()} == {"0000:3b:00.0", "0000:3b:00.1"}
