"""End to end: `terraform apply` waits until the real Celery worker realized the cluster on the vSphere
simulator, and `terraform destroy` until it tore it down."""

import datetime
import threading

import pytest
from django.db import connection
from django.utils import timezone

from tenants import services
from tenants.choices import ClusterState as S
from tenants.models import VirtualCluster
from tests.vsphere.conftest import own_vcsim, vcsim_binary  # noqa: F401 (fixtures)
from tests.vsphere.sites import ensure_pools
from vsphere.models import VCenter
from vsphere.reconcile import discovery

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def site(own_vcsim):  # noqa: F811 (the fixture above)
    ensure_pools()
    vcenter = VCenter.objects.create(
        name="sim", host="127.0.0.1", port=own_vcsim.port, username=own_vcsim.info["user"],
        password=own_vcsim.info["password"], ca_bundle=own_vcsim.ca_file, datacenter="DC0",
        compute_cluster="DC0_C0", template="hpc-template",
    )  # fmt: skip
    discovery.discover(vcenter)
    return vcenter


def approve_when_endorsed(world) -> threading.Thread:
    """The site admin's part, through the service layer, while Terraform waits."""

    def watch():
        try:
            for _ in range(1200):
                cluster = VirtualCluster.objects.filter(tenant=world.tenant_a, name="mpi-1").first()
                if cluster is not None and cluster.state == S.ENDORSED:
                    services.approve_cluster(cluster, world.admin)  # queues the reconciler on commit
                    return
                threading.Event().wait(0.1)
        finally:
            connection.close()

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return thread


def test_apply_waits_until_the_worker_realized_the_cluster_and_destroy_until_it_is_retired(
    celery_worker, site, terraform, world
):
    lease_end = (timezone.localdate() + datetime.timedelta(days=30)).isoformat()
    terraform.write(f"""
data "enclave_tenant" "a" {{
  slug = "tenant-a"
}}
resource "enclave_cluster" "mpi" {{
  tenant_id          = data.enclave_tenant.a.id
  name               = "mpi-1"
  workload_class     = "parallel-distributed"
  worker_count       = 1
  vcpus_per_node     = 4
  memory_gb_per_node = 8
  login_node         = false
  interconnect       = "sriov-ib"
  lease_end          = "{lease_end}"
  justification      = "OpenFOAM"
  wait_for           = "ready"
  ready_timeout      = "240s"
  delete_timeout     = "240s"
}}
""", poll="500ms")  # fmt: skip
    approver = approve_when_endorsed(world)
    terraform.apply()
    approver.join(timeout=10)
    cluster = VirtualCluster.objects.get(tenant=world.tenant_a, name="mpi-1")
    assert cluster.state == S.READY and cluster.observed_generation == cluster.generation
    assert terraform.state()["enclave_cluster.mpi"]["state"] == "ready"

    terraform.run("destroy", "-auto-approve")
    cluster.refresh_from_db()
    assert cluster.state == S.RETIRED
