"""The vsphere REST API: vCenters, hosts, PFs, VF assignments, capacity, plan preview, operation log."""

import pytest
from django.db import connection

from audit.models import AuditEvent
from tenants.choices import ClusterState
from tests.vsphere.sites import capacity_site, cluster_of, make_pf, make_vcenter, sim_vcenter, take_vfs
from vsphere import tasks
from vsphere.choices import PFSource, StepStatus
from vsphere.models import Host, OperationLog, PhysicalFunction, PlanPreview, VCenter

pytestmark = pytest.mark.django_db


def vcenter_body(**overrides) -> dict:
    body = {
        "name": "vc-1", "host": "vcenter.example.org", "username": "enclave@vsphere.local",
        "password": "s3cret-pw", "datacenter": "DC0", "compute_cluster": "DC0_C0", "template": "hpc-template",
    }  # fmt: skip
    body.update(overrides)
    return {k: v for k, v in body.items() if v is not None}


def pf_body(host, **overrides) -> dict:
    body = {"host": host.pk, "pci_id": "0000:af:00.0", "pnic": "vmnic6", "model": "ConnectX-6",
            "link_type": "infiniband", "firmware_num_vfs": 16, "max_vfs": 8}  # fmt: skip
    body.update(overrides)
    return body


# ---------------------------------------------------------------- vCenters


def test_an_admin_registers_a_vcenter_with_a_write_only_encrypted_password(world, api):
    response = api(world.admin).post("/api/v1/vcenters/", vcenter_body(), format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert "password" not in body and body["has_password"] is True
    assert body["verify_tls"] is True and body["insecure"] is False and body["skips_tls_verification"] is False
    vcenter = VCenter.objects.get(pk=body["id"])
    assert vcenter.secret() == "s3cret-pw"
    with connection.cursor() as cursor:
        cursor.execute("SELECT password FROM vsphere_vcenter WHERE id = %s", [vcenter.pk])
        stored = cursor.fetchone()[0]
    assert "s3cret-pw" not in stored
    event = AuditEvent.objects.get(action="vcenter.create", object_id=str(vcenter.pk))
    assert event.after["password"] == "********"
    assert "s3cret-pw" not in str(api(world.admin).get(f"/api/v1/vcenters/{vcenter.pk}/").json())


def test_skipping_tls_verification_needs_the_visible_insecure_switch(world, api):
    client = api(world.admin)
    refused = client.post("/api/v1/vcenters/", vcenter_body(verify_tls=False), format="json")
    assert refused.status_code == 400 and "insecure" in refused.json()["verify_tls"][0]
    both = client.post("/api/v1/vcenters/", vcenter_body(verify_tls=True, insecure=True), format="json")
    assert both.status_code == 400 and "insecure" in both.json()
    with_ca = client.post("/api/v1/vcenters/", vcenter_body(insecure=True, ca_bundle="/etc/ca.pem"), format="json")
    assert with_ca.status_code == 400 and "ca_bundle" in with_ca.json()
    lab = client.post("/api/v1/vcenters/", vcenter_body(insecure=True), format="json")
    assert lab.status_code == 201, lab.json()
    assert lab.json()["verify_tls"] is False and lab.json()["skips_tls_verification"] is True
    event = AuditEvent.objects.get(action="vcenter.create")
    assert "INSECURE" in event.message


def test_a_vcenter_needs_a_password_or_a_secret_file_in_the_secrets_directory(world, api, settings):
    client = api(world.admin)
    none = client.post("/api/v1/vcenters/", vcenter_body(password=None), format="json")
    assert none.status_code == 400 and "password" in none.json()
    relative = client.post("/api/v1/vcenters/", vcenter_body(password=None, password_file="vc.pw"), format="json")
    assert relative.status_code == 400 and "password_file" in relative.json()
    inside = f"{settings.SECRETS_DIR}/vc.pw"
    ok = client.post("/api/v1/vcenters/", vcenter_body(password=None, password_file=inside), format="json")
    assert ok.status_code == 201 and ok.json()["has_password"] is False


def test_a_management_network_needs_its_isolation_stated_and_cannot_be_a_tenant_port_group(world, api):
    client = api(world.admin)
    silent = client.post("/api/v1/vcenters/", vcenter_body(management_network="mgmt"), format="json")
    assert silent.status_code == 400 and "management_isolation" in silent.json()
    tenant = vcenter_body(management_network="enclave-tenant-b-vlan120", management_isolation="PVLAN")
    assert client.post("/api/v1/vcenters/", tenant, format="json").status_code == 400
    body = vcenter_body(management_network="mgmt", management_isolation="Private VLAN, isolated ports")
    created = client.post("/api/v1/vcenters/", body, format="json")
    assert created.status_code == 201 and created.json()["management_network"] == "mgmt"
    page = api(world.admin)
    page.force_login(world.admin)
    html = page.get(f"/vsphere/vcenters/{created.json()['id']}/").content.decode()
    assert "Private VLAN, isolated ports" in html


@pytest.mark.parametrize("field", ["password_file", "ca_bundle"])
def test_secret_files_outside_the_secrets_directory_are_refused(world, api, settings, tmp_path_factory, field):
    secrets = tmp_path_factory.mktemp("secrets")
    settings.SECRETS_DIR = str(secrets)
    (secrets / "escape").symlink_to("/etc/passwd")
    client = api(world.admin)
    hostile = ["/etc/passwd", f"{secrets}/../../etc/shadow", f"{secrets}/escape", str(secrets), "etc/passwd",
               f"{settings.DATA_DIR}/secret_key"]  # fmt: skip
    for n, path in enumerate(hostile):
        body = vcenter_body(name=f"vc-{n}", password="pw", **{field: path})
        response = client.post("/api/v1/vcenters/", body, format="json")
        assert response.status_code == 400, (path, response.json())
        assert "secrets directory" in response.json()[field][0]
    vcenter = make_vcenter(password="pw")
    patched = client.patch(f"/api/v1/vcenters/{vcenter.pk}/", {field: "/etc/passwd"}, format="json")
    assert patched.status_code == 400 and VCenter.objects.get(pk=vcenter.pk).password_file == ""
    assert not VCenter.objects.filter(name__startswith="vc-").exists()


def test_a_secret_file_moved_outside_behind_the_api_is_refused_when_read(world, settings, tmp_path_factory):
    secrets = tmp_path_factory.mktemp("secrets")
    settings.SECRETS_DIR = str(secrets)
    (secrets / "vc.pw").write_text("pw-from-file\n")
    vcenter = make_vcenter(password="", password_file=str(secrets / "vc.pw"))
    assert vcenter.secret() == "pw-from-file"
    (secrets / "vc.pw").unlink()
    (secrets / "vc.pw").symlink_to("/etc/passwd")
    with pytest.raises(OSError, match="secrets directory"):
        vcenter.secret()


def test_an_update_without_a_password_keeps_the_stored_one(world, api):
    vcenter = make_vcenter(password="old-pw")
    response = api(world.admin).patch(f"/api/v1/vcenters/{vcenter.pk}/", {"port": 8443}, format="json")
    assert response.status_code == 200, response.json()
    vcenter.refresh_from_db()
    assert vcenter.port == 8443 and vcenter.secret() == "old-pw"
    api(world.admin).patch(f"/api/v1/vcenters/{vcenter.pk}/", {"password": "new-pw"}, format="json")
    vcenter.refresh_from_db()
    assert vcenter.secret() == "new-pw"
    assert AuditEvent.objects.filter(action="vcenter.update", message__contains="password changed").count() == 1


def test_members_and_owners_can_neither_see_nor_register_vcenters(world, api):
    make_vcenter()
    for user in (world.owner_a, world.member_a):
        assert api(user).get("/api/v1/vcenters/").status_code == 403
        assert api(user).post("/api/v1/vcenters/", vcenter_body(), format="json").status_code == 403
        assert api(user).get("/api/v1/vsphere/capacity/").status_code == 403
        assert api(user).get("/api/v1/physical-functions/").status_code == 403
    assert api().get("/api/v1/vcenters/").status_code in (401, 403)


def test_a_vcenter_whose_vfs_are_held_cannot_be_deleted(world, api):
    vcenter, pfs = capacity_site()
    take_vfs(pfs[0], cluster_of(world.tenant_a, world.owner_a), 1)
    response = api(world.admin).delete(f"/api/v1/vcenters/{vcenter.pk}/")
    assert response.status_code == 409 and "decommission" in response.json()["detail"]


def test_discover_is_queued_for_the_worker_and_syncs_hosts_and_pfs(
    world, api, vcsim, django_capture_on_commit_callbacks
):
    vcenter = sim_vcenter(vcsim)
    with django_capture_on_commit_callbacks(execute=False) as queued:
        response = api(world.admin).post(f"/api/v1/vcenters/{vcenter.pk}/discover/")
    assert response.status_code == 200 and response.json()["vcenter"] == vcenter.pk
    assert len(queued) == 1 and not Host.objects.exists()  # the request itself did not call vSphere
    assert tasks.discover_vcenter(vcenter.pk) is True  # what the worker runs
    vcenter.refresh_from_db()
    assert vcenter.hosts.count() == 4 and vcenter.last_discovery and not vcenter.discovery_error
    assert PhysicalFunction.objects.filter(host__vcenter=vcenter, source=PFSource.DISCOVERED).count() == 8
    assert AuditEvent.objects.filter(action="vcenter.discovery_queued").count() == 1


def test_a_failed_discovery_is_kept_on_the_vcenter(world):
    vcenter = make_vcenter()  # nothing listens on its port
    assert tasks.discover_vcenter(vcenter.pk) is False
    vcenter.refresh_from_db()
    assert "Connection" in vcenter.discovery_error and vcenter.last_discovery is None


# ---------------------------------------------------------------- physical functions


@pytest.fixture
def host(db):
    return Host.objects.create(vcenter=make_vcenter(), name="esx-09", compute_cluster="DC0_C0")


def test_an_admin_adds_a_pf_by_hand_and_it_is_audited(world, api, host):
    response = api(world.admin).post("/api/v1/physical-functions/", pf_body(host), format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["source"] == PFSource.MANUAL and body["card"] == "0000:af:00" and body["used_vfs"] == 0
    assert AuditEvent.objects.filter(action="pf.create", object_id=str(body["id"])).exists()


def test_a_bad_pci_id_is_refused_with_a_field_error(world, api, host):
    for bad in ("3b:00.0", "0000:3B:00.0", "0000:3b:00.8", "0000:3b:00"):
        response = api(world.admin).post("/api/v1/physical-functions/", pf_body(host, pci_id=bad), format="json")
        assert response.status_code == 400 and "PCI id like 0000:3b:00.0" in response.json()["pci_id"][0], bad


def test_the_firmware_rule_counts_every_port_of_the_card(world, api, host):
    client = api(world.admin)
    first = client.post("/api/v1/physical-functions/", pf_body(host, max_vfs=8, firmware_num_vfs=16), format="json")
    assert first.status_code == 201
    second = pf_body(host, pci_id="0000:af:00.1", pnic="vmnic7", max_vfs=8, firmware_num_vfs=16)
    response = client.post("/api/v1/physical-functions/", second, format="json")
    assert response.status_code == 400
    assert response.json() == {"firmware_num_vfs": ["NUM_OF_VFS must be at least 17: the card enables 16 VFs"]}
    second["firmware_num_vfs"] = 17
    assert client.post("/api/v1/physical-functions/", second, format="json").status_code == 201


def test_a_pf_cannot_enable_as_many_vfs_as_the_firmware_has(world, api, host):
    response = api(world.admin).post(
        "/api/v1/physical-functions/", pf_body(host, max_vfs=16, firmware_num_vfs=16), format="json"
    )
    assert response.status_code == 400 and "at least 17" in response.json()["firmware_num_vfs"][0]


def test_a_duplicate_pf_on_the_same_host_is_refused(world, api, host):
    client = api(world.admin)
    assert client.post("/api/v1/physical-functions/", pf_body(host), format="json").status_code == 201
    response = client.post("/api/v1/physical-functions/", pf_body(host, pnic="vmnic9"), format="json")
    assert response.status_code == 400
    assert response.json()["pci_id"] == ["esx-09 already has a PF 0000:af:00.0."]
    other = Host.objects.create(vcenter=host.vcenter, name="esx-10", compute_cluster="DC0_C0")
    assert client.post("/api/v1/physical-functions/", pf_body(other), format="json").status_code == 201


def test_max_vfs_cannot_drop_below_an_assigned_vf_and_a_used_pf_stays(world, api, host):
    pf = make_pf(host, max_vfs=8)
    take_vfs(pf, cluster_of(world.tenant_a, world.owner_a), 4)
    client = api(world.admin)
    response = client.patch(f"/api/v1/physical-functions/{pf.pk}/", {"max_vfs": 3}, format="json")
    assert response.status_code == 409 and "VF 3" in response.json()["detail"]
    assert client.patch(f"/api/v1/physical-functions/{pf.pk}/", {"max_vfs": 4}, format="json").status_code == 200
    assert client.delete(f"/api/v1/physical-functions/{pf.pk}/").status_code == 409
    assert PhysicalFunction.objects.filter(pk=pf.pk, max_vfs=4).exists()


def test_capacity_of_a_discovered_pf_is_not_edited_by_hand(world, api, host):
    pf = make_pf(host, source=PFSource.DISCOVERED)
    client = api(world.admin)
    response = client.patch(f"/api/v1/physical-functions/{pf.pk}/", {"max_vfs": 4}, format="json")
    assert response.status_code == 400 and "run discovery" in response.json()["detail"]
    described = client.patch(f"/api/v1/physical-functions/{pf.pk}/", {"model": "ConnectX-5"}, format="json")
    assert described.status_code == 200 and described.json()["model"] == "ConnectX-5"


def test_a_manual_pf_is_deleted_with_an_audit_event(world, api, host):
    pf = make_pf(host)
    assert api(world.admin).delete(f"/api/v1/physical-functions/{pf.pk}/").status_code == 204
    assert AuditEvent.objects.filter(action="pf.delete", object_id=str(pf.pk)).exists()


# ---------------------------------------------------------------- VF assignments and capacity


def test_vf_assignments_are_scoped_to_the_tenants_clusters(world, api):
    _vcenter, pfs = capacity_site()
    take_vfs(pfs[0], cluster_of(world.tenant_a, world.owner_a), 2)
    take_vfs(pfs[2], cluster_of(world.tenant_b, world.owner_b), 1)
    a_ids = [r["id"] for r in api(world.member_a).get("/api/v1/vf-assignments/").json()["results"]]
    b_ids = [r["id"] for r in api(world.owner_b).get("/api/v1/vf-assignments/").json()["results"]]
    assert len(a_ids) == 2 and len(b_ids) == 1
    assert api(world.admin).get("/api/v1/vf-assignments/").json()["count"] == 3
    assert api(world.owner_b).get(f"/api/v1/vf-assignments/{a_ids[0]}/").status_code == 404
    assert api(world.owner_a).get(f"/api/v1/vf-assignments/{a_ids[0]}/").json()["pci_id"] == "0000:3b:00.0"


def test_capacity_reports_used_and_free_vfs_per_pf_and_per_host(world, api):
    _vcenter, pfs = capacity_site()
    take_vfs(pfs[0], cluster_of(world.tenant_a, world.owner_a), 3)
    take_vfs(pfs[2], cluster_of(world.tenant_b, world.owner_b), 6)
    report = api(world.admin).get("/api/v1/vsphere/capacity/").json()["vcenters"][0]
    assert (report["total"], report["used"], report["free"]) == (18, 9, 9)
    esx1, esx2 = report["hosts"]
    assert (esx1["host"], esx1["used"], esx1["free"]) == ("esx-01", 3, 9)
    assert [(p["pf"], p["used"], p["free"]) for p in esx1["pfs"]] == [("0000:3b:00.0", 3, 5), ("0000:5e:00.0", 0, 4)]
    assert (esx2["used"], esx2["free"]) == (6, 0)


# ---------------------------------------------------------------- plan preview and operation log


def test_tenant_b_gets_404_for_tenant_as_plan_and_operation_log(world, api):
    cluster = cluster_of(world.tenant_a, world.member_a)
    for path in (f"/api/v1/clusters/{cluster.pk}/vsphere-plan/", f"/api/v1/clusters/{cluster.pk}/vsphere-operations/"):
        assert api(world.owner_b).get(path).status_code == 404, path
        assert api(world.member_a).get(path).status_code == 200, path
    assert api(world.owner_b).get("/api/v1/clusters/999999/vsphere-plan/").status_code == 404


def worker_answers(client, cluster) -> dict:
    """Ask for the plan, run the queued job as the worker would, read the stored answer."""
    asked = client.get(f"/api/v1/clusters/{cluster.pk}/vsphere-plan/").json()
    assert asked["status"] == "queued" and asked["changes"] == []
    tasks.compute_plan(PlanPreview.objects.filter(cluster=cluster).first().pk)
    return client.get(f"/api/v1/clusters/{cluster.pk}/vsphere-plan/").json()


def test_the_plan_says_why_when_no_vcenter_can_answer(world, api):
    cluster = cluster_of(world.tenant_a, world.owner_a, submit=True)
    none = worker_answers(api(world.admin), cluster)
    assert none["status"] == "failed" and none["vcenter"] is None and "No vCenter" in none["error"]
    Host.objects.create(vcenter=make_vcenter(), name="esx-01", compute_cluster="DC0_C0")
    make_pf(Host.objects.get(), max_vfs=8)
    PlanPreview.objects.all().delete()  # an answer stays fresh for a minute; this test does not wait
    down = worker_answers(api(world.admin), cluster)
    assert down["vcenter"] == "site" and "Connection refused" in down["error"]


def test_the_plan_lists_the_vsphere_changes_without_taking_vfs(world, api, vcsim):
    vcenter = sim_vcenter(vcsim)
    tasks.discover_vcenter(vcenter.pk)
    cluster = cluster_of(world.tenant_a, world.owner_a, submit=True, name="plan-api")
    assert cluster.state == ClusterState.ENDORSED
    before = vcsim.stats()
    client = api(world.admin)
    client.get(f"/api/v1/clusters/{cluster.pk}/vsphere-plan/")
    assert vcsim.stats() == before  # the request itself never talks to vCenter
    plan = worker_answers(client, cluster)
    assert plan["status"] == "ready" and plan["error"] == "" and plan["vcenter"] == "sim"
    kinds = [change["kind"] for change in plan["changes"]]
    assert kinds.count("clone_vm") == 4  # login, manager, 2 workers
    assert kinds.count("add_sriov_nic") == 3  # not the login node
    # The tenant has no VLAN segment yet: the preview names the VLAN approval will allocate.
    assert any(c["kind"] == "create_portgroup" and "VLAN 120" in c["text"] for c in plan["changes"])
    assert not cluster.vf_assignments.exists()


def test_the_operation_log_lists_steps_oldest_first_and_polls_after_an_id(world, api):
    cluster = cluster_of(world.tenant_a, world.owner_a)
    steps = [OperationLog.objects.create(cluster=cluster, generation=1, key=f"k{i}", step=f"step {i}",
                                         status=StepStatus.DONE) for i in range(3)]  # fmt: skip
    client = api(world.member_a)
    rows = client.get(f"/api/v1/clusters/{cluster.pk}/vsphere-operations/").json()["results"]
    assert [r["step"] for r in rows] == ["step 0", "step 1", "step 2"]
    newer = client.get(f"/api/v1/clusters/{cluster.pk}/vsphere-operations/?after={steps[0].pk}").json()
    assert [r["step"] for r in newer["results"]] == ["step 1", "step 2"]


def test_hosts_are_listed_for_admins_with_their_pf_count(world, api):
    vcenter, _pfs = capacity_site()
    other = make_vcenter("other")
    Host.objects.create(vcenter=other, name="esx-99", compute_cluster="DC0_C0")
    rows = api(world.admin).get(f"/api/v1/hosts/?vcenter={vcenter.pk}").json()["results"]
    assert [(r["name"], r["pf_count"], r["vcenter_name"]) for r in rows] == [
        ("esx-01", 2, "site"),
        ("esx-02", 1, "site"),
    ]
    assert api(world.owner_a).get("/api/v1/hosts/").status_code == 403


@pytest.mark.django_db(transaction=True)
def test_two_ports_of_one_card_added_at_once_cannot_both_break_the_firmware_rule(make_user):
    import threading

    from django.db import connection as conn

    from vsphere import services

    host = Host.objects.create(vcenter=make_vcenter(), name="esx-09", compute_cluster="DC0_C0")
    outcomes, barrier = [], threading.Barrier(2)

    def add(function: str):
        try:
            barrier.wait()
            services.create_pf({"host": host, "pci_id": f"0000:af:00.{function}", "pnic": f"vmnic{function}",
                                "firmware_num_vfs": 16, "max_vfs": 8})  # fmt: skip
            outcomes.append("added")
        except Exception as exc:  # noqa: BLE001 (the refusal is a ValidationError)
            outcomes.append(type(exc).__name__)
        finally:
            conn.close()

    threads = [threading.Thread(target=add, args=(f,)) for f in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["ValidationError", "added"]
    assert PhysicalFunction.objects.filter(host=host).count() == 1
