"""The cluster page's vSphere operation log: folded, newest first, a filter rewrite phrased as progress."""

import pytest

from tests.browser import login
from tests.vsphere.test_access import member_request_approved
from vsphere.reconcile.journal import StepLog

REWRITE = ("set-portgroup-filter enclave-tenant-a-vlan: traffic filter differs from the tenant policy "
           "(36 rules missing, 34 not in the policy)")  # fmt: skip


def logged(world):
    cluster = member_request_approved(world)
    log = StepLog(cluster, cluster.generation)
    log("pg", "create-portgroup enclave-tenant-a-vlan", "done")
    log("filter", REWRITE, "started")
    return cluster


@pytest.mark.django_db
def test_a_member_reads_the_filter_rewrite_as_progress_newest_first_and_an_admin_reads_the_counts(
        world, client, reconcile_held):  # fmt: skip
    cluster = logged(world)
    client.force_login(world.member_a)
    page = client.get(f"/clusters/{cluster.pk}/").content.decode()
    log = page.split('<details id="operation-log">')[1].split("</details>")[0]
    assert "rules missing" not in log and "not in the policy" not in log
    assert "bringing the traffic filter up to date with the tenant policy (36 rules to add, 34 to remove)" in log
    assert log.index("bringing the traffic filter") < log.index("create-portgroup"), "newest first"
    client.force_login(world.admin)
    assert "36 rules missing, 34 not in the policy" in client.get(f"/clusters/{cluster.pk}/").content.decode()
    client.force_login(world.member_a)
    partial = client.get(f"/vsphere/clusters/{cluster.pk}/operations/", HTTP_HX_REQUEST="true").content.decode()
    assert "rules missing" not in partial and partial.index("bringing") < partial.index("create-portgroup")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_in_chromium_the_operation_log_is_folded_until_opened(browser, live_server, world, reconcile_held):
    cluster = logged(world)
    page = login(browser, live_server, "member-a")
    page.goto(f"{live_server.url}/clusters/{cluster.pk}/")
    assert not page.locator("#vsphere-operations").is_visible()
    page.click("#operation-log summary")
    page.wait_for_selector("#vsphere-operations tbody tr", state="visible")
    assert "bringing the traffic filter" in page.locator("#vsphere-operations tbody tr").first.inner_text()
