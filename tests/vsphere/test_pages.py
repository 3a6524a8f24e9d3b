"""vSphere pages: the capacity chart, vCenters, the PF form, plan preview and the live operation log."""

import re

import pytest
from django.db.models import F

from audit.models import AuditEvent
from tenants.choices import ClusterState
from tenants.models import VirtualCluster
from tests.vsphere.sites import capacity_site, cluster_of, make_vcenter, sim_vcenter, take_vfs
from vsphere import tasks
from vsphere.choices import PFSource, StepStatus
from vsphere.models import Host, OperationLog, PhysicalFunction, PlanPreview
from vsphere.templatetags.vsphere_tags import BAR_WIDTH

pytestmark = pytest.mark.django_db


def page(client, user, url, method="get", data=None):
    client.force_login(user)
    return getattr(client, method)(url, data or {})


def bars(html: str) -> dict[tuple[str, str], tuple[int, int, float, float]]:
    """(host, PF) -> (used, free, used bar width, free bar width) read back from the SVG."""
    found = {}
    pattern = (r'<g class="pf-bar" data-host="([^"]+)" data-pf="([^"]+)" data-used="(\d+)" data-free="(\d+)">'
               r'.*?<rect class="used"[^>]* width="([\d.]+)".*?<rect class="free"[^>]* width="([\d.]+)"')  # fmt: skip
    for host, pf, used, free, used_w, free_w in re.findall(pattern, html, re.S):
        found[(host, pf)] = (int(used), int(free), float(used_w), float(free_w))
    return found


def test_the_capacity_chart_draws_used_and_free_vfs_per_pf_grouped_by_host(world, client):
    _vcenter, pfs = capacity_site()  # esx-01: 8 + 4 VFs, esx-02: 6 VFs
    take_vfs(pfs[0], cluster_of(world.tenant_a, world.owner_a), 3)
    take_vfs(pfs[2], cluster_of(world.tenant_b, world.owner_b), 6)
    html = page(client, world.admin, "/vsphere/").content.decode()
    assert html.count("<svg") == 1 and '<script src="http' not in html and "cdn" not in html.lower()
    scale = BAR_WIDTH / 8  # bars are scaled to the largest PF (8 VFs)
    assert bars(html) == {
        ("esx-01", "0000:3b:00.0"): (3, 5, 3 * scale, 5 * scale),
        ("esx-01", "0000:5e:00.0"): (0, 4, 0, 4 * scale),
        ("esx-02", "0000:3b:00.0"): (6, 0, 6 * scale, 0),
    }
    assert 'data-host="esx-01" data-used="3" data-free="9"' in html  # the host's header row
    assert "9 of 18 VFs used, 9 free" in html


def test_vsphere_pages_are_for_site_admins_only(world, client):
    vcenter = make_vcenter()
    for url in ("/vsphere/", "/vsphere/vcenters/", f"/vsphere/vcenters/{vcenter.pk}/", "/vsphere/pfs/"):
        assert page(client, world.owner_a, url).status_code == 404, url
    member_home = page(client, world.member_a, "/").content.decode()
    assert "/vsphere/" not in member_home
    assert 'href="/vsphere/"' in page(client, world.admin, "/").content.decode()


def test_the_vcenter_pages_flag_an_insecure_vcenter_and_the_last_discovery(world, client):
    lab = make_vcenter("lab", insecure=True, verify_tls=False, discovery_error="connect: ConnectionRefusedError")
    make_vcenter("prod", ca_bundle="/etc/enclave/vcenter-ca.pem")
    listing = page(client, world.admin, "/vsphere/vcenters/").content.decode()
    assert listing.count("INSECURE — TLS not verified") == 1 and "TLS verified (CA bundle)" in listing
    assert "discovery failed" in listing and "never discovered" in listing
    detail = page(client, world.admin, f"/vsphere/vcenters/{lab.pk}/").content.decode()
    assert "INSECURE" in detail and "TLS verification is switched off" in detail
    assert "ConnectionRefusedError" in detail


def test_the_discover_button_queues_discovery_and_the_page_shows_the_result(
    world, client, vcsim, django_capture_on_commit_callbacks
):
    vcenter = sim_vcenter(vcsim)
    with django_capture_on_commit_callbacks(execute=False) as queued:
        response = page(client, world.admin, f"/vsphere/vcenters/{vcenter.pk}/discover/", "post")
    assert response.status_code == 302 and len(queued) == 1
    tasks.discover_vcenter(vcenter.pk)  # what the worker runs
    detail = page(client, world.admin, f"/vsphere/vcenters/{vcenter.pk}/").content.decode()
    assert "discovered" in detail and "DC0_C0_H3" in detail and "hpc-template" in detail
    assert "0000:3b:00.1 (vmnic3, 0/7)" in detail


def test_the_pf_form_adds_a_pf_and_explains_the_firmware_rule(world, client):
    host = Host.objects.create(vcenter=make_vcenter(), name="esx-09", compute_cluster="DC0_C0")
    form = {"host": host.pk, "pci_id": "0000:af:00.0", "pnic": "vmnic6", "model": "ConnectX-6", "port": 1,
            "link_type": "infiniband", "firmware_num_vfs": 8, "max_vfs": 8}  # fmt: skip
    refused = page(client, world.admin, "/vsphere/pfs/", "post", form)
    assert refused.status_code == 200 and "NUM_OF_VFS must be at least 9" in refused.content.decode()
    bad_pci = page(client, world.admin, "/vsphere/pfs/", "post", {**form, "pci_id": "af:00.0", "firmware_num_vfs": 9})
    assert "Use a PCI id like 0000:3b:00.0." in bad_pci.content.decode()
    assert not PhysicalFunction.objects.exists()
    added = page(client, world.admin, "/vsphere/pfs/", "post", {**form, "firmware_num_vfs": 9})
    assert added.status_code == 302
    pf = PhysicalFunction.objects.get()
    assert pf.source == PFSource.MANUAL and AuditEvent.objects.filter(action="pf.create").exists()
    duplicate = page(client, world.admin, "/vsphere/pfs/", "post", {**form, "firmware_num_vfs": 9})
    assert "esx-09 already has a PF 0000:af:00.0." in duplicate.content.decode()
    assert "ConnectX-6" in page(client, world.admin, "/vsphere/pfs/").content.decode()


def test_the_plan_preview_page_shows_the_vsphere_changes(world, client, vcsim):
    vcenter = sim_vcenter(vcsim)
    tasks.discover_vcenter(vcenter.pk)
    cluster = cluster_of(world.tenant_a, world.owner_a, submit=True, name="plan-page", login_node=False)
    before = vcsim.stats()
    queued = page(client, world.admin, f"/vsphere/clusters/{cluster.pk}/plan/").content.decode()
    assert "is asking vCenter" in queued and 'hx-trigger="every 2s"' in queued  # the partial polls
    assert vcsim.stats() == before  # the page never talks to vCenter: the worker does
    tasks.compute_plan(PlanPreview.objects.get(cluster=cluster).pk)
    html = page(client, world.admin, f"/vsphere/clusters/{cluster.pk}/plan/").content.decode()
    assert html.count('<li data-kind="clone_vm">') == 3  # manager + 2 workers
    assert html.count('<li data-kind="add_sriov_nic">') == 3
    assert "tenant-a-plan-page-w02" in html and "VLAN 120" in html  # the next free VLAN of the pool
    partial = client.get(f"/vsphere/clusters/{cluster.pk}/plan/", headers={"HX-Request": "true"}).content.decode()
    assert partial.lstrip().startswith('<div id="vsphere-plan">') and "<html" not in partial
    assert not cluster.vf_assignments.exists()
    assert page(client, world.owner_b, f"/vsphere/clusters/{cluster.pk}/plan/").status_code == 404


def test_the_cluster_page_lazy_loads_the_plan_for_admins_before_approval(world, client):
    capacity_site()  # a site with the SR-IOV PFs the request asks for, or submit refuses it
    cluster = cluster_of(world.tenant_a, world.owner_a, submit=True)
    assert cluster.state == ClusterState.ENDORSED
    plan_url = f"/vsphere/clusters/{cluster.pk}/plan/"
    admin_view = page(client, world.admin, f"/clusters/{cluster.pk}/").content.decode()
    assert f'hx-get="{plan_url}" hx-trigger="load"' in admin_view
    owner_view = page(client, world.owner_a, f"/clusters/{cluster.pk}/").content.decode()
    assert plan_url not in owner_view and "Operation log" in owner_view


def test_the_operation_log_polls_every_3_seconds_only_while_the_site_owes_work(world, client):
    make_vcenter()
    cluster = cluster_of(world.tenant_a, world.owner_a)
    OperationLog.objects.create(cluster=cluster, generation=1, key="clone:x", step="clone_vm x", status=StepStatus.DONE)
    VirtualCluster.objects.filter(pk=cluster.pk).update(state=ClusterState.PROVISIONING)
    ops_url = f"/vsphere/clusters/{cluster.pk}/operations/"
    busy = page(client, world.member_a, f"/clusters/{cluster.pk}/").content.decode()
    assert f'hx-get="{ops_url}" hx-trigger="every 3s"' in busy and "clone_vm x" in busy
    partial = client.get(ops_url, headers={"HX-Request": "true"}).content.decode()
    assert partial.lstrip().startswith('<div id="vsphere-operations"') and "every 3s" in partial
    # Ready but a generation ahead of what the site observed (a resize queued): still live.
    VirtualCluster.objects.filter(pk=cluster.pk).update(state=ClusterState.READY, observed_generation=0)
    assert "every 3s" in client.get(ops_url, headers={"HX-Request": "true"}).content.decode()
    VirtualCluster.objects.filter(pk=cluster.pk).update(observed_generation=F("generation"))
    settled = client.get(ops_url, headers={"HX-Request": "true"}).content.decode()
    assert "every 3s" not in settled and "clone_vm x" in settled
    assert page(client, world.owner_b, ops_url).status_code == 404


def test_the_cluster_page_has_no_vsphere_panel_without_a_vcenter(world, client):
    cluster = cluster_of(world.tenant_a, world.owner_a)
    assert 'id="cluster-vsphere"' not in page(client, world.owner_a, f"/clusters/{cluster.pk}/").content.decode()
