"""`terraform apply/destroy` of a virtual cluster: submitted on create, resized and extended in place, waited for."""

import datetime
import threading

import pytest
from django.db import connection
from django.utils import timezone

from tenants import services
from tenants.choices import ClusterState as S
from tenants.models import VirtualCluster

pytestmark = pytest.mark.django_db(transaction=True)


def cluster_config(workers=2, lease_days=30, wait_for="submitted", ready_timeout="60m") -> str:
    lease_end = (timezone.localdate() + datetime.timedelta(days=lease_days)).isoformat()
    return f"""
data "enclave_tenant" "a" {{
  slug = "tenant-a"
}}
resource "enclave_cluster" "mpi" {{
  tenant_id          = data.enclave_tenant.a.id
  name               = "mpi-1"
  workload_class     = "parallel-distributed"
  worker_count       = {workers}
  vcpus_per_node     = 8
  memory_gb_per_node = 32
  interconnect       = "sriov-ib"
  lease_end          = "{lease_end}"
  justification      = "OpenFOAM runs for the wind-tunnel paper"
  wait_for           = "{wait_for}"
  ready_timeout      = "{ready_timeout}"
}}
"""


def retire_when_decommissioned(cluster_pk: int) -> threading.Thread:
    """Stands in for the site's worker at the end of a teardown: records that the cluster was retired."""

    def watch():
        try:
            for _ in range(600):
                cluster = VirtualCluster.objects.get(pk=cluster_pk)
                if cluster.state == S.DECOMMISSIONING:
                    services.set_observed(cluster, S.RETIRED, "Torn down", observed_generation=cluster.generation)
                    return
                threading.Event().wait(0.1)
        finally:
            connection.close()

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return thread


def test_a_cluster_is_submitted_resized_and_extended_in_place_then_destroyed(terraform, world):
    terraform.write(cluster_config())
    terraform.apply()
    cluster = VirtualCluster.objects.get(tenant=world.tenant_a, name="mpi-1")
    assert cluster.state == S.ENDORSED and cluster.worker_count == 2  # a PI's request skips endorsement
    assert terraform.state()["enclave_cluster.mpi"]["state"] == "endorsed"
    assert terraform.plan_changes() == 0

    cluster = services.approve_cluster(cluster, world.admin)
    terraform.write(cluster_config(workers=3, lease_days=40))
    plan = terraform.run("plan").stdout
    assert "enclave_cluster.mpi will be updated in-place" in plan and "0 to add, 1 to change, 0 to destroy" in plan
    terraform.apply()
    resized = VirtualCluster.objects.get(pk=cluster.pk)
    assert resized.worker_count == 3 and resized.generation == cluster.generation + 1
    assert resized.lease_end == timezone.localdate() + datetime.timedelta(days=40)
    assert terraform.plan_changes() == 0

    watcher = retire_when_decommissioned(cluster.pk)
    terraform.run("destroy", "-auto-approve")
    watcher.join(timeout=30)
    assert VirtualCluster.objects.get(pk=cluster.pk).state == S.RETIRED
    assert terraform.state() == {}


def test_resizing_a_request_that_waits_for_approval_is_refused_with_the_apis_reason(terraform, world):
    terraform.write(cluster_config())
    terraform.apply()
    terraform.write(cluster_config(workers=3))
    result = terraform.apply(check=False)
    assert result.returncode == 1
    assert "Enclave refused the change in the object's current state (409)" in result.stderr
    assert "Only live clusters can be resized; this one is endorsed" in result.stderr.replace("\n", " ")
    assert VirtualCluster.objects.get(tenant=world.tenant_a, name="mpi-1").worker_count == 2


def test_waiting_for_ready_without_a_site_worker_times_out_with_a_clear_error(terraform, world):
    terraform.write(cluster_config(wait_for="ready", ready_timeout="2s"))
    result = terraform.apply(check=False)
    assert result.returncode == 1
    error = " ".join(result.stderr.split())
    assert "Cluster mpi-1 is not ready" in error
    assert "timed out after 2s waiting for cluster mpi-1" in error and "it is endorsed" in error
    assert "waits for a site admin's approval" in error
    cluster = VirtualCluster.objects.get(tenant=world.tenant_a, name="mpi-1")
    assert cluster.state == S.ENDORSED  # the request stands; Terraform keeps it, tainted
    assert "enclave_cluster.mpi" in terraform.state()

    terraform.run("destroy", "-auto-approve")  # a pending request is withdrawn at once
    assert VirtualCluster.objects.get(pk=cluster.pk).state == S.RETIRED


def test_an_error_at_the_site_fails_the_wait_with_the_sites_message(terraform, world):
    terraform.write(cluster_config(wait_for="ready", ready_timeout="60s"))

    def fail_at_the_site():
        try:
            for _ in range(600):
                cluster = VirtualCluster.objects.filter(tenant=world.tenant_a, name="mpi-1").first()
                if cluster is not None and cluster.state == S.ENDORSED:
                    cluster = services.approve_cluster(cluster, world.admin)
                    services.set_observed(cluster, S.ERROR, "No SR-IOV capable host has 3 free VFs")
                    return
                threading.Event().wait(0.1)
        finally:
            connection.close()

    thread = threading.Thread(target=fail_at_the_site, daemon=True)
    thread.start()
    result = terraform.apply(check=False)
    thread.join(timeout=30)
    assert result.returncode == 1
    assert "the site reports an error: No SR-IOV capable host has 3 free VFs" in " ".join(result.stderr.split())
