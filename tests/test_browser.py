"""In Debian's Chromium (driven by Playwright, no browser download): submit, endorse, approve."""

import datetime

import pytest

from tenants.models import VirtualCluster
from tests.browser import login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_researcher_submits_owner_endorses_admin_approves(browser, live_server, world, tmp_path):
    researcher = login(browser, live_server, "member-a")
    researcher.goto(f"{live_server.url}/clusters/new/")
    researcher.select_option("#id_tenant", label="tenant-a")
    researcher.fill("#id_name", "Not_DNS!")
    researcher.press("#id_name", "Tab")
    researcher.wait_for_selector("#err-name:has-text('lowercase letters')")  # checked live, inline
    researcher.fill("#id_name", "cfd-run")
    researcher.select_option("#id_workload_class", "parallel-distributed")
    # htmx re-renders the advice for the chosen class without a page load.
    researcher.wait_for_selector("#advice:has-text('SR-IOV InfiniBand')")
    researcher.fill("#id_worker_count", "2")
    researcher.fill("#id_vcpus_per_node", "8")
    researcher.fill("#id_memory_gb_per_node", "32")
    researcher.select_option("#id_interconnect", "sriov-ib")
    researcher.wait_for_selector("#advice:has-text('no vMotion')")
    researcher.fill("#id_worker_count", "40")
    researcher.press("#id_worker_count", "Tab")
    researcher.wait_for_selector("#quota-problems:has-text('nodes: asked 42')")
    researcher.fill("#id_worker_count", "2")
    researcher.press("#id_worker_count", "Tab")
    researcher.wait_for_selector("#quota-problems", state="detached")
    lease = (datetime.date.today() + datetime.timedelta(days=20)).isoformat()
    researcher.fill("#id_lease_end", lease)
    researcher.fill("#id_justification", "Wind tunnel runs")
    researcher.click("button[name=submit]")
    researcher.wait_for_selector("#cluster-state:has-text('Submitted')")
    researcher.screenshot(path=str(tmp_path / "submitted.png"))
    cluster = VirtualCluster.objects.get(name="cfd-run")

    owner = login(browser, live_server, "owner-a")
    owner.goto(f"{live_server.url}/clusters/{cluster.pk}/")
    owner.click("#endorse")
    owner.wait_for_selector("#cluster-state:has-text('Endorsed')")

    admin = login(browser, live_server, "site-admin")
    admin.goto(f"{live_server.url}/approvals/")
    admin.click(f"a[href='/clusters/{cluster.pk}/']")
    admin.click("#approve")
    admin.wait_for_selector("#cluster-state:has-text('Approved')")

    researcher.goto(f"{live_server.url}/clusters/{cluster.pk}/")
    researcher.wait_for_selector("#cluster-state:has-text('Approved')")
    history = researcher.inner_text("#history")
    assert "cluster.endorse" in history and "cluster.approve" in history and "site-admin" in history


def test_another_tenants_cluster_page_is_a_404_in_the_browser(browser, live_server, world):
    from tenants import services
    from tests.conftest import service_data

    cluster = services.create_cluster(world.tenant_a, world.member_a, service_data())
    page = login(browser, live_server, "member-b")
    response = page.goto(f"{live_server.url}/clusters/{cluster.pk}/")
    assert response.status == 404
