"""The cluster request form shows each quota's limit, use and what the request adds, and applies advice in a click."""

import re

import pytest

from tenants import services
from tenants.models import Quota, VirtualCluster
from tests.conftest import cluster_data, service_data

pytestmark = pytest.mark.django_db


def quota_row(page: str, label: str) -> list[str]:
    """The cells of one row of the quota panel (limit, in use, this request, left after)."""
    row = page.split(f'data-quota="{label}"')[1].split("</tr>")[0]
    return [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td>(.*?)</td>", row)]


def live(client, **overrides):
    body = cluster_data(**{"gpu_mode": "none", "gpus_per_worker": 0, "nic_type": "vmxnet3", **overrides})
    return client.post("/clusters/new/", body, HTTP_HX_REQUEST="true", HTTP_X_ENCLAVE_VALIDATE="1").content.decode()


def test_a_lone_tenant_is_preselected_and_its_limits_and_use_shown_before_typing(world, client):
    Quota.objects.filter(tenant=world.tenant_a).update(
        max_nodes=10, max_vcpus=64, max_memory_gb=1024, max_vfs=16, max_segments=5
    )
    services.create_cluster(world.tenant_a, world.member_a, service_data(name="held"), submit=True)  # 4 VMs x 8
    client.force_login(world.member_a)
    page = client.get("/clusters/new/").content.decode()
    assert re.search(rf'<option value="{world.tenant_a.pk}" selected>', page)
    assert quota_row(page, "nodes") == ["10", "4", "—", "6"]
    assert quota_row(page, "vCPUs") == ["64", "32", "—", "32"]
    assert "Slurm manager VM and the login VM" in page


def test_a_user_of_several_tenants_chooses_one_and_sees_no_panel_until_then(world, client):
    client.force_login(world.admin)
    page = client.get("/clusters/new/").content.decode()
    assert '<option value="" selected>' in page.split('id="id_tenant"')[1].split("</select>")[0]
    assert 'id="quota-panel"' not in page


def test_the_panel_counts_the_manager_and_login_vms_and_says_so(world, client):
    Quota.objects.filter(tenant=world.tenant_a).update(max_nodes=10, max_vcpus=64, max_memory_gb=512)
    client.force_login(world.member_a)
    page = live(client, tenant=world.tenant_a.pk, worker_count=4, vcpus_per_node=8, memory_gb_per_node=64)
    assert quota_row(page, "nodes") == ["10", "0", "+6", "4"]
    assert quota_row(page, "memory (GB)") == ["512", "0", "+384", "128"]
    assert "This request is 6 VMs: 4 workers + 1 Slurm manager + 1 login node" in page
    page = live(client, tenant=world.tenant_a.pk, worker_count=4, vcpus_per_node=16, memory_gb_per_node=64)
    assert quota_row(page, "vCPUs") == ["64", "0", "+96", "-32 (over)"]
    assert "vCPUs: asked 96, 64 left of 64" in page


def test_applying_the_recommendation_fills_the_fields_and_submits_nothing(world, client):
    client.force_login(world.member_a)
    body = {
        **cluster_data(tenant=world.tenant_a.pk, interconnect="none", data_path="standard", workload_class="ml"),
        "apply_recommendation": "1",
    }
    page = client.post("/clusters/new/", body).content.decode()
    assert re.search(r'<option value="sriov-roce" selected>', page)
    assert re.search(r'<option value="enhanced" selected>', page)
    assert 'value="mpi-1"' in page  # what was typed stays
    assert not VirtualCluster.objects.exists()


def test_another_tenants_quota_is_never_shown(world, client):
    Quota.objects.filter(tenant=world.tenant_b).update(max_nodes=77)
    client.force_login(world.member_a)
    page = live(client, tenant=world.tenant_b.pk)
    assert 'id="quota-panel"' not in page and ">77<" not in page
