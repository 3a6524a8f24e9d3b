"""How researchers reach a VM cluster: the API, the "ready" e-mail and the page say login host, address, SSH, VMs."""

import pytest
from django.core import mail

from tenants import services
from tests.browser import login
from tests.vsphere.sites import capacity_site, cluster_of


@pytest.fixture
def approved(world, reconcile_held):
    """Tenant A's SR-IOV cluster (login, manager, 2 workers) approved on a vCenter; realization held."""
    return member_request_approved(world)


def member_request_approved(world):
    capacity_site()
    cluster = services.endorse_cluster(cluster_of(world.tenant_a, world.member_a, submit=True), world.owner_a)
    return services.approve_cluster(cluster, world.admin)


@pytest.mark.django_db
def test_the_api_says_how_to_reach_the_cluster_and_what_is_not_filtered(world, api, approved):
    body = api(world.member_a).get(f"/api/v1/clusters/{approved.pk}/access/").json()
    assert body["login"] == {"host_name": "mpi-1-login.tenant-a.internal", "address": body["nodes"][0]["addresses"][0]}
    assert body["ssh"] == f"ssh -l member-a {body['login']['address']}"
    assert [(n["name"], n["role"], len(n["addresses"])) for n in body["nodes"]] == [
        ("tenant-a-mpi-1-login", "Login node", 1), ("tenant-a-mpi-1-mgr", "Slurm manager", 2),
        ("tenant-a-mpi-1-w01", "Worker", 2), ("tenant-a-mpi-1-w02", "Worker", 2),
    ]  # fmt: skip
    assert "traffic filter of port group enclave-tenant-a-vlan" in body["enforcement"][0]
    assert "NOT isolated" in body["unprotected"][0]  # no managed fabric on this site (tests/fabrics: with one)
    assert api(world.owner_b).get(f"/api/v1/clusters/{approved.pk}/access/").status_code == 404


@pytest.mark.django_db
def test_the_access_answer_costs_the_same_queries_for_2_or_12_workers(world, api, reconcile_held,
                                                                       django_assert_max_num_queries):  # fmt: skip
    capacity_site()
    services.update_quota(world.tenant_a.quota, max_nodes=100, max_vcpus=10_000, max_memory_gb=100_000, max_vfs=100)
    small = services.approve_cluster(cluster_of(world.tenant_a, world.owner_a, submit=True, interconnect="none"),
                                     world.admin)  # fmt: skip
    big = services.approve_cluster(cluster_of(world.tenant_a, world.owner_a, submit=True, name="big",
                                              worker_count=12, interconnect="none"), world.admin)  # fmt: skip
    client = api(world.owner_a)
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as few:
        client.get(f"/api/v1/clusters/{small.pk}/access/")
    with django_assert_max_num_queries(len(few.captured_queries)):
        assert len(client.get(f"/api/v1/clusters/{big.pk}/access/").json()["nodes"]) == 14


@pytest.mark.django_db
def test_the_ready_e_mail_carries_the_ssh_command_and_every_vm(world, approved, django_capture_on_commit_callbacks):
    services.set_observed(approved, "provisioning")
    with django_capture_on_commit_callbacks(execute=True):
        services.set_observed(approved, "ready", "Realized on vSphere")
    (ready,) = [m for m in mail.outbox if m.subject.endswith("is ready")]
    assert "ssh -l member-a 10.240." in ready.body and "tenant-a-mpi-1-w02" in ready.body
    assert "Not filtered by the tenant's firewall" in ready.body and "NOT isolated" in ready.body


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_cluster_page_shows_the_login_host_the_ssh_command_and_every_vm(browser, live_server, world,
                                                                           reconcile_held):  # fmt: skip
    cluster = member_request_approved(world)
    page = login(browser, live_server, "member-a")
    page.goto(f"{live_server.url}/clusters/{cluster.pk}/")
    page.wait_for_selector("#cluster-access")
    assert page.inner_text("#login-host") == "mpi-1-login.tenant-a.internal"
    address = page.inner_text("#login-address")
    assert page.inner_text("#ssh-command").strip() == f"ssh -l member-a {address}"
    assert page.locator("#cluster-vms tbody tr").count() == 4
    assert "Not filtered" in page.inner_text("#protection") and "NOT isolated" in page.inner_text("#protection")
    other = login(browser, live_server, "owner-b")
    assert other.goto(f"{live_server.url}/clusters/{cluster.pk}/").status == 404
