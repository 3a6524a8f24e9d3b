"""Two tenants' clusters never share VM names: tenant `chem`'s `lab-md` and tenant `chem-lab`'s `md` would.

A clash is refused at submit and cannot be approved twice; a released cluster's names are free again; and a
cluster blocked by someone else's VM is told so without that owner's marker (another tenant's cluster id).
"""

import importlib
import re
import threading

import pytest
from django.apps import apps as django_apps
from django.db import IntegrityError, connection, transaction

from core.errors import Conflict, NotOffered
from tenants import services
from tenants.choices import ClusterState
from tenants.models import VirtualCluster
from tests.conftest import service_data
from tests.vsphere.sites import make_vcenter, sim_vcenter
from vsphere import naming, tasks
from vsphere.errors import MarkerMismatchError
from vsphere.models import OperationLog, Placement, VCenter
from vsphere.placement import vm_names
from vsphere.plan import diff
from vsphere.plan.specs import ClusterIntent, NodeIntent, Observed, ObservedVM, PowerState
from vsphere.reconcile import discovery
from vsphere.vim.driver import Driver
from vsphere.vim.faults import require_marker

S = ClusterState
OTHER_MARKER = "enclave:cluster:"  # how another cluster's id would read in a blocked message


class Labs:
    """Tenant `chem-lab` (the victim, cluster `md`) and tenant `chem` (whose `lab-md` would take md's VMs)."""

    def __init__(self, make_user):
        self.admin = make_user("site-admin", staff=True)
        self.pi_lab, self.pi_chem = make_user("pi-lab"), make_user("pi-chem")
        self.chem_lab = services.create_tenant("chem-lab", "Chem lab", owner=self.pi_lab)
        self.chem = services.create_tenant("chem", "Chemistry", owner=self.pi_chem)

    def victim(self, submit=True):
        return services.create_cluster(self.chem_lab, self.pi_lab, small(name="md"), submit=submit)

    def clash(self, submit=True):
        return services.create_cluster(self.chem, self.pi_chem, small(name="lab-md"), submit=submit)


def small(**overrides) -> dict:
    """A cluster without SR-IOV (a manager and one worker): the VM names are what these tests are about."""
    return service_data(**{"interconnect": "none", "worker_count": 1, "login_node": False, **overrides})


@pytest.fixture
def labs(db, make_user):
    return Labs(make_user)


@pytest.mark.django_db
def test_a_cluster_name_that_would_take_another_tenants_vm_names_is_refused_at_submit(labs):
    make_vcenter()
    victim = labs.victim()
    clash = labs.clash(submit=False)
    assert {n for _r, n in naming.node_names(victim)} == {n for _r, n in naming.node_names(clash)}
    with pytest.raises(NotOffered) as refused:
        services.submit_cluster(clash, labs.pi_chem)
    assert refused.value.status_code == 409
    assert refused.value.text == (
        "The VM names this cluster would get (chem-lab-md-…) are taken on this site by another cluster's VMs; "
        "choose another cluster name."
    )
    assert "Chem lab" not in refused.value.text and OTHER_MARKER not in refused.value.text
    clash.refresh_from_db()
    assert clash.state == S.DRAFT


@pytest.mark.django_db
def test_the_api_answers_a_clashing_request_with_a_409_and_keeps_it_a_draft(labs, api):
    make_vcenter()
    labs.victim()
    body = {**small(name="lab-md"), "tenant": labs.chem.pk, "submit": True}
    body["lease_end"] = body["lease_end"].isoformat()
    response = api(labs.pi_chem).post("/api/v1/clusters/", body, format="json")
    assert response.status_code == 409, response.json()
    assert "taken on this site by another cluster's VMs" in str(response.json())
    assert not VirtualCluster.objects.filter(tenant=labs.chem).exclude(state=S.DRAFT).exists()


@pytest.mark.django_db
def test_another_tenants_draft_holds_no_vm_names_so_the_first_to_submit_has_them(labs):
    make_vcenter()
    draft = labs.victim(submit=False)
    assert labs.clash().state == S.ENDORSED
    with pytest.raises(NotOffered, match="taken on this site"):
        services.submit_cluster(draft, labs.pi_lab)


def both_endorsed(labs):
    """The victim and the clash both waiting for approval, as two requests submitted before this check existed."""
    victim, clash = labs.victim(), labs.clash(submit=False)
    VirtualCluster.objects.filter(pk=clash.pk).update(state=S.ENDORSED)  # setup: past the submit check
    clash.refresh_from_db()
    return victim, clash


@pytest.mark.django_db
def test_a_clash_that_reached_approval_is_refused_to_the_admin_and_nothing_is_placed(labs, reconcile_held):
    make_vcenter()
    victim, clash = both_endorsed(labs)
    services.approve_cluster(victim, labs.admin)
    with pytest.raises(Conflict, match=r"chem-lab-md-… are held on this site by cluster chem-lab/md"):
        services.approve_cluster(clash, labs.admin)
    clash.refresh_from_db()
    assert clash.state == S.ENDORSED and clash.site_kind == ""
    assert not Placement.objects.filter(cluster=clash).exists()
    assert Placement.objects.get(cluster=victim).vm_base == "chem-lab-md"


@pytest.mark.django_db
def test_the_database_refuses_a_second_placement_with_the_same_vm_names(labs, reconcile_held):
    make_vcenter()
    victim, clash = both_endorsed(labs)
    services.approve_cluster(victim, labs.admin)
    with pytest.raises(IntegrityError, match=vm_names.CONSTRAINT), transaction.atomic():
        Placement.objects.create(cluster=clash, site=VCenter.objects.get(), vm_base="chem-lab-md")


@pytest.mark.django_db
def test_an_approval_that_looked_before_the_other_committed_is_refused_by_the_constraint(
    labs, reconcile_held, monkeypatch
):  # fmt: skip
    make_vcenter()
    victim, clash = both_endorsed(labs)
    services.approve_cluster(victim, labs.admin)
    real, looks = vm_names._holder, []

    def first_look_sees_nothing(cluster, base):
        """The clash's first look ran before the victim's approval committed; its second one is real."""
        looks.append(base)
        return None if len(looks) == 1 else real(cluster, base)

    monkeypatch.setattr(vm_names, "_holder", first_look_sees_nothing)
    with pytest.raises(Conflict, match="held on this site by cluster chem-lab/md"):
        services.approve_cluster(clash, labs.admin)
    assert looks == ["chem-lab-md", "chem-lab-md"]
    clash.refresh_from_db()
    assert clash.state == S.ENDORSED and not Placement.objects.filter(cluster=clash).exists()


@pytest.mark.django_db(transaction=True)
def test_two_approvals_racing_for_the_same_vm_names_cannot_both_succeed(make_user, reconcile_held, monkeypatch):
    make_vcenter()
    labs = Labs(make_user)
    victim, clash = both_endorsed(labs)
    real, looked, seen, looks = vm_names._holder, threading.Barrier(2, timeout=120), threading.local(), []

    def look_then_wait_for_the_other(cluster, base):
        """Each approval's first look happens before either writes: only the constraint can refuse one."""
        found = real(cluster, base)
        looks.append(found)
        if not getattr(seen, "once", False):
            seen.once = True
            looked.wait()
        return found

    monkeypatch.setattr(vm_names, "_holder", look_then_wait_for_the_other)
    outcomes = {}

    def approve(cluster):
        try:
            services.approve_cluster(cluster, labs.admin)
            outcomes[cluster.pk] = "approved"
        except Conflict as exc:
            outcomes[cluster.pk] = exc.text
        finally:
            connection.close()

    threads = [threading.Thread(target=approve, args=(c,)) for c in (victim, clash)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert list(outcomes.values()).count("approved") == 1, outcomes
    assert [o for o in outcomes.values() if o != "approved"][0].startswith("Cannot approve: the VM names chem-lab-md")
    assert looks[:2] == [None, None] and len(looks) == 3  # both looked first; the loser looked again after refusal
    assert VirtualCluster.objects.filter(pk__in=[victim.pk, clash.pk], state=S.APPROVED).count() == 1
    assert Placement.objects.filter(vm_base="chem-lab-md").count() == 1


@pytest.mark.django_db
def test_a_retired_clusters_vm_names_can_be_used_again(labs, reconcile_held):
    make_vcenter()
    victim = services.approve_cluster(labs.victim(), labs.admin)
    services.decommission_cluster(victim, labs.pi_lab)
    services.set_observed(VirtualCluster.objects.get(pk=victim.pk), S.RETIRED, "Decommissioned")  # the reconciler
    clash = services.approve_cluster(labs.clash(), labs.admin)
    assert Placement.objects.get(cluster=clash).vm_base == "chem-lab-md"
    assert Placement.objects.get(cluster=victim).vm_base is None  # its placement stays, its names are released


@pytest.mark.django_db
def test_a_rejected_or_withdrawn_requests_vm_names_can_be_used_again(labs, reconcile_held):
    make_vcenter()
    services.reject_cluster(labs.victim(), labs.admin, "not this term")
    clash = labs.clash()  # the rejected request holds nothing
    services.decommission_cluster(clash, labs.pi_chem)  # withdrawn before approval
    again = labs.victim()
    assert services.approve_cluster(again, labs.admin).state == S.APPROVED
    assert Placement.objects.get(cluster=again).vm_base == "chem-lab-md"


@pytest.mark.django_db
def test_the_migration_gives_each_live_placement_its_vm_names_and_a_clash_to_the_first_placed(labs, reconcile_held):
    vcenter = make_vcenter()
    victim, clash = both_endorsed(labs)
    services.approve_cluster(victim, labs.admin)
    Placement.objects.update(vm_base=None)  # setup: placements made before the column existed
    Placement.objects.create(cluster=clash, site=vcenter)
    VirtualCluster.objects.filter(pk=clash.pk).update(state=S.READY, site_kind="vsphere")
    importlib.import_module("vsphere.migrations.0015_placement_vm_base").hold_bases(django_apps, None)
    assert dict(Placement.objects.values_list("cluster_id", "vm_base")) == {victim.pk: "chem-lab-md", clash.pk: None}


# ---------------------------------------------------------------- what a blocked tenant reads


def blocked_plan(victim, other_marker: str) -> list:
    """The victim's plan when a VM of its names already exists with another cluster's marker."""
    marker = naming.cluster_marker(victim)
    names = [n for _r, n in naming.node_names(victim)]
    observed = Observed(vms={n: ObservedVM(n, "vm-1", naming.node_marker(other_marker, n), "h1", 8, 32768, False,
                                           False, PowerState.ON) for n in names})  # fmt: skip
    nodes = tuple(NodeIntent(n, naming.node_marker(marker, n), "h1", 8, 32768) for n in names)
    intent = ClusterIntent("dc", "cl", "tpl", "dvs", "m", "vmnic1", "pg", "pgm", 100, ("h1",), nodes=nodes,
                           marker=marker)  # fmt: skip
    return diff.plan(intent, observed)


@pytest.mark.django_db
def test_a_blocked_plan_says_the_vm_belongs_to_something_else_without_naming_it(labs):
    victim = labs.victim()
    changes = blocked_plan(victim, "enclave:cluster:4242")
    assert changes and all(c.kind == diff.ChangeKind.BLOCKED for c in changes)
    for change in changes:
        assert str(change).endswith("a VM of that name exists in vCenter and belongs to something else; "
                                    "refusing to touch it")  # fmt: skip
        assert OTHER_MARKER not in str(change) and "4242" not in str(change)


def test_the_drivers_own_refusal_names_no_marker_either():
    with pytest.raises(MarkerMismatchError) as refused:
        require_marker("VM", "chem-lab-md-mgr", "enclave:cluster:4242/chem-lab-md-mgr", "enclave:cluster:7/x")
    assert (
        str(refused.value)
        == "VM 'chem-lab-md-mgr' exists in vCenter and belongs to something else; refusing to touch it"
    )
    assert "4242" not in str(refused.value)


@pytest.mark.django_db(transaction=True)
def test_a_tenant_blocked_by_another_clusters_vm_reads_no_other_cluster_in_its_status_or_log(
    own_vcsim, make_user, api, reconcile_held
):  # fmt: skip
    discovery.discover(sim_vcenter(own_vcsim))
    labs = Labs(make_user)
    other = labs.clash(submit=False)  # whose VM it is (a cluster made before names were checked)
    victim = services.approve_cluster(labs.victim(), labs.admin)
    manager = naming.node_names(victim)[0][1]
    with Driver(own_vcsim.config()) as drv:
        impostor = NodeIntent(manager, naming.node_marker(naming.cluster_marker(other), manager), "DC0_C0_H0", 2, 1024)
        drv.vms.ensure("DC0", "DC0_C0", "hpc-template", impostor)
    assert tasks.reconcile_cluster.apply(args=(victim.pk,)).get() == "error"
    client = api(labs.pi_lab)
    status = client.get(f"/api/v1/clusters/{victim.pk}/").json()["status_message"]
    assert "belongs to something else" in status
    steps = str(client.get(f"/api/v1/clusters/{victim.pk}/vsphere-operations/").json())
    texts = [status, steps, *OperationLog.objects.filter(cluster=victim).values_list("step", "message")]
    assert not [t for t in map(str, texts) if re.search(rf"cluster:{other.pk}\b", t)]
