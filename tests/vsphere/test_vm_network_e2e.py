"""Issue 10 end to end (real worker, real simulator): addresses, login group, port-group filter, drift, release."""

import datetime

import pytest
from django.utils import timezone

from audit.models import AuditEvent
from netpolicy import site as site_settings
from netpolicy.compiler import vds
from netpolicy.ir import build_site, tenant_name
from netpolicy.models import Address, AddressState, FirewallRule
from tenants import services
from tenants.choices import ClusterState
from tests.vsphere.isolation import foreign_nics
from tests.vsphere.sites import ensure_pools
from tests.vsphere.test_filters import raw_ruleset, reconfigure_portgroup
from vsphere import tasks
from vsphere.models import VCenter
from vsphere.naming import node_names
from vsphere.reconcile import discovery
from vsphere.vim.driver import Driver

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]
S = ClusterState
SETTLE = 120
PORTGROUP = "enclave-lab-vlan120"


@pytest.fixture
def site(own_vcsim, make_user):
    ensure_pools()
    vcenter = VCenter.objects.create(
        name="sim", host="127.0.0.1", port=own_vcsim.port, username=own_vcsim.info["user"],
        password=own_vcsim.info["password"], ca_bundle=own_vcsim.ca_file, datacenter="DC0",
        compute_cluster="DC0_C0", template="hpc-template",
    )  # fmt: skip
    discovery.discover(vcenter)
    admin = make_user("site-admin", staff=True)
    site_settings.update_settings(admin, {"dns_servers": ["10.0.0.53"], "nfs_servers": ["10.0.1.0/28"],
                                          "dns_domain": "hpc.example.edu"})  # fmt: skip
    return vcenter, admin


def settle(wait_for, cluster, *states):
    def reached():
        cluster.refresh_from_db()
        return cluster.state in states and cluster.observed_generation == cluster.generation

    assert wait_for(reached, SETTLE), f"{cluster.state}: {cluster.status_message}"


def guest(drv, name):
    """Host name, ipAddress and per-NIC addresses as VMware Tools report them, read straight from vCenter."""
    vm = drv.snapshot("DC0").vm_mor(name)
    kinds = {d.key: type(d).__name__.rsplit(".", 1)[-1] for d in vm.config.hardware.device}
    return vm.guest.hostName, vm.guest.ipAddress, {kinds[n.deviceConfigId]: list(n.ipAddress) for n in vm.guest.net}


def test_a_4_node_sriov_cluster_is_addressed_protected_repaired_and_released(
    celery_worker, site, own_vcsim, make_user, wait_for
):
    _vcenter, admin = site
    owner = make_user("pi")
    tenant = services.create_tenant("lab", "Lab", owner=owner)
    data = {
        "name": "mpi", "workload_class": "parallel-distributed", "worker_count": 2, "vcpus_per_node": 4,
        "memory_gb_per_node": 8, "login_node": True, "interconnect": "sriov-ib", "network_mode": "vlan",
        "data_path": "standard", "lease_end": timezone.localdate() + datetime.timedelta(days=30),
        "justification": "OpenFOAM",
    }  # fmt: skip
    cluster = services.approve_cluster(services.create_cluster(tenant, owner, data, submit=True), admin)
    settle(wait_for, cluster, S.READY)
    held = {(a.node_name, a.nic): a.address for a in Address.objects.filter(cluster=cluster)}
    vms = [name for _role, name in node_names(cluster)]
    assert len(vms) == 4 and len(held) == 7  # login: primary only; manager and workers: primary and VF

    # each VM has its customized host name and addresses, read back from the simulator
    with Driver(own_vcsim.config()) as drv:
        for name in vms:
            host_name, address, per_nic = guest(drv, name)
            assert host_name == name.removeprefix("lab-") and address == held[(name, "primary")]
            assert per_nic["VirtualVmxnet3"] == [held[(name, "primary")]]
            if (name, "sriov") in held:
                assert per_nic["VirtualSriovEthernetCard"] == [held[(name, "sriov")]]
        assert foreign_nics(drv, vms, {PORTGROUP}) == []

    # the login group holds the login VM's address, the site groups the site settings' servers
    ir = build_site([tenant]).tenant(tenant_name(tenant.pk))
    groups = {g.name: [str(c) for c in g.cidrs] for p in ir.policies for r in p.rules for g in r.destinations}
    assert groups["login"] == [f"{held[('lab-mpi-login', 'primary')]}/32"]
    assert groups["nfs_servers"] == ["10.0.1.0/28"] and groups["dns_servers"] == ["10.0.0.53/32"]

    # the port group's filter holds the compiled rules, SSH allowed to the login VM only
    compiled = vds.compile_tenant(build_site([tenant]), tenant_name(tenant.pk))
    with Driver(own_vcsim.config()) as drv:
        _vlan, ruleset = raw_ruleset(drv, PORTGROUP)
        assert drv.snapshot("DC0").portgroups[PORTGROUP][0].filter_rules == compiled
    ssh_rule = FirewallRule.objects.get(policy__tenant=tenant, name="ssh_to_login")
    ssh = [r for r in ruleset.rules if r.description == f"enclave p{ssh_rule.policy_id}/r{ssh_rule.pk}"]
    assert [r.qualifier[0].destinationAddress.address for r in ssh] == [held[("lab-mpi-login", "primary")]]

    # the filter removed out of band is drift: the cluster shows degraded, then the filter is back
    with Driver(own_vcsim.config()) as drv:
        reconfigure_portgroup(drv, PORTGROUP, lambda pc: setattr(pc, "filterPolicy", None))
    assert tasks.check_drift() == 1
    degraded = AuditEvent.objects.filter(action="cluster.degraded", object_id=str(cluster.pk)).last()
    assert "set_portgroup_filter" in degraded.after["status_message"]
    settle(wait_for, cluster, S.READY)
    with Driver(own_vcsim.config()) as drv:
        assert drv.snapshot("DC0").portgroups[PORTGROUP][0].filter_rules == compiled

    # decommission releases every address (cooling down before anyone gets it again)
    services.decommission_cluster(cluster, owner)
    settle(wait_for, cluster, S.RETIRED)
    states = set(Address.objects.filter(cluster=cluster).values_list("state", flat=True))
    assert states == {AddressState.COOLING}
    assert build_site([tenant]).tenant(tenant_name(tenant.pk)).policies  # compiles with empty role groups
