"""Clusters by name through the `enclave` command line: request, endorse, approve, wait, in tables, JSON and YAML."""

import datetime
import json
import subprocess

import pytest
import yaml

from tenants import services
from tenants.choices import ClusterState as S
from tenants.models import VirtualCluster
from tests.cli.conftest import cli_env, command, one_line_failure
from tests.conftest import ROOT, cluster_data, service_data

pytestmark = pytest.mark.django_db(transaction=True)


def spec_file(tmp_path, **overrides):
    path = tmp_path / "cluster.yaml"
    data = {key: value for key, value in cluster_data(**overrides).items() if key != "name"}
    path.write_text(yaml.safe_dump(data))
    return str(path)


def test_tenants_and_clusters_list_as_a_table_json_and_yaml(enclave, tokens, world):
    services.create_cluster(world.tenant_a, world.owner_a, service_data(), submit=True)
    services.create_cluster(world.tenant_b, world.owner_b, service_data(name="other"), submit=True)

    table = enclave("tenants", "list", token=tokens["owner"])
    assert table.code == 0, table.err
    assert table.out.splitlines()[0].split() == ["NAME", "TITLE", "ID"]
    assert "tenant-a" in table.out and "tenant-b" not in table.out

    listed = enclave("clusters", "list", token=tokens["owner"])
    header, row = listed.out.splitlines()
    assert header.split()[:3] == ["TENANT", "NAME", "STATE"] and row.split()[:3] == ["tenant-a", "mpi-1", "endorsed"]

    as_json = json.loads(enclave("clusters", "list", "-o", "json", token=tokens["admin"]).out)
    assert sorted(c["name"] for c in as_json) == ["mpi-1", "other"]
    as_yaml = yaml.safe_load(
        enclave("-o", "yaml", "clusters", "list", "--tenant", "tenant-b", token=tokens["admin"]).out
    )
    assert [(c["name"], c["state"], c["worker_count"]) for c in as_yaml] == [("other", "endorsed", 2)]
    shown = json.loads(enclave("clusters", "show", "mpi-1", "--tenant", "tenant-a", "-o", "json",
                               token=tokens["member"]).out)  # fmt: skip
    assert shown["id"] == VirtualCluster.objects.get(name="mpi-1").pk and shown["requested_by"] == "owner-a"


def test_a_members_request_is_endorsed_by_the_owner_and_approved_by_the_admin_all_by_name(enclave, tokens, tmp_path):
    requested = enclave("clusters", "request", "mpi-1", "--tenant", "tenant-a", "-f", spec_file(tmp_path),
                        "--workers", "3", token=tokens["member"])  # fmt: skip
    assert requested.code == 0, requested.err
    assert "submitted" in requested.out and "mpi-1" in requested.out
    assert VirtualCluster.objects.get(name="mpi-1").worker_count == 3

    refused = enclave("clusters", "approve", "mpi-1", "--tenant", "tenant-a", token=tokens["admin"])
    assert "(HTTP 409)" in one_line_failure(refused)  # the PI has not endorsed it yet

    endorsed = enclave("clusters", "endorse", "mpi-1", "-t", "tenant-a", "-o", "json", token=tokens["owner"])
    assert json.loads(endorsed.out)["state"] == "endorsed"
    approved = enclave("clusters", "approve", "mpi-1", "-t", "tenant-a", "-o", "yaml", token=tokens["admin"])
    assert yaml.safe_load(approved.out)["state"] == "approved", approved.err

    waited = enclave("clusters", "wait", "mpi-1", "-t", "tenant-a", "--for", "approved", token=tokens["member"])
    assert waited.code == 0 and "mpi-1: approved" in waited.err


def test_wait_follows_a_cluster_until_it_is_ready_showing_each_state(live_server, config_path, tokens, world):
    cluster = services.create_cluster(world.tenant_a, world.owner_a, service_data(), submit=True)
    cluster = services.approve_cluster(cluster, world.admin)
    env = cli_env(config_path, live_server.url, tokens["owner"])
    args = command("clusters", "wait", "mpi-1", "--tenant", "tenant-a", "--timeout", "60", "-o", "json")
    with subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:
        assert "mpi-1: approved (changes pending)" in proc.stderr.readline()
        cluster = services.set_observed(cluster, S.PROVISIONING, "Cloning tenant-a-mpi-1-worker-1")
        assert "provisioning (changes pending) - Cloning tenant-a-mpi-1-worker-1" in proc.stderr.readline()
        services.set_observed(cluster, S.READY, "Realized on vSphere", observed_generation=cluster.generation)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "mpi-1: ready - Realized on vSphere" in err
    assert json.loads(out)["state"] == "ready"


def test_a_wait_that_runs_out_of_time_is_one_line_and_exit_3(enclave, tokens, world):
    services.create_cluster(world.tenant_a, world.owner_a, service_data(), submit=True)
    result = enclave("clusters", "wait", "mpi-1", "-t", "tenant-a", "--timeout", "1", token=tokens["owner"])
    assert result.code == 3 and "Traceback" not in result.err
    assert result.err.strip().splitlines()[-1] == (
        "enclave: timed out after 1s waiting for mpi-1 to be ready; it is endorsed"
    )


def test_a_rejected_request_ends_a_wait_with_the_reason(enclave, tokens, world):
    services.create_cluster(world.tenant_a, world.member_a, service_data(), submit=True)
    rejected = enclave("clusters", "reject", "mpi-1", "-t", "tenant-a", "--reason", "Use the shared cluster",
                       token=tokens["owner"])  # fmt: skip
    assert rejected.code == 0 and "rejected" in rejected.out
    waited = enclave("clusters", "wait", "mpi-1", "-t", "tenant-a", token=tokens["member"])
    assert waited.code == 1
    assert waited.err.strip().splitlines()[-1] == "enclave: mpi-1 is rejected: Use the shared cluster"


def test_day_two_resize_extend_and_decommission_by_name(enclave, tokens, world):
    cluster = services.create_cluster(world.tenant_a, world.owner_a, service_data(), submit=True)
    cluster = services.approve_cluster(cluster, world.admin)
    services.set_observed(cluster, S.READY, "Realized", observed_generation=cluster.generation)
    resized = enclave("clusters", "resize", "mpi-1", "-t", "tenant-a", "--workers", "4", "-o", "json",
                      token=tokens["owner"])  # fmt: skip
    assert json.loads(resized.out)["worker_count"] == 4, resized.err
    lease = (cluster.lease_end + datetime.timedelta(days=5)).isoformat()
    extended = enclave("clusters", "extend-lease", "mpi-1", "-t", "tenant-a", "--until", lease, "-o", "json",
                       token=tokens["owner"])  # fmt: skip
    assert json.loads(extended.out)["lease_end"] == lease, extended.err
    gone = enclave("clusters", "decommission", "mpi-1", "-t", "tenant-a", "-o", "json", token=tokens["owner"])
    assert json.loads(gone.out)["state"] == "decommissioning", gone.err


def test_a_request_the_api_finds_invalid_is_one_line_with_the_fields(enclave, tokens, tmp_path):
    result = enclave("clusters", "request", "mpi-1", "-t", "tenant-a", "-f", spec_file(tmp_path), "--workers", "0",
                     token=tokens["owner"])  # fmt: skip
    line = one_line_failure(result)
    assert line.startswith("enclave: invalid request: ") and "worker_count" in line and "(HTTP 400)" in line
    assert not VirtualCluster.objects.exists()
