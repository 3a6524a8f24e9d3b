"""The fabric agent's channel against PostgreSQL: approval to partitions, desired document, reports, readiness."""

from django.urls import reverse
from enclave_agent import fabric_wire as wire

from agents import services as agent_services
from fabrics import hooks
from fabrics.models import Fabric, PartitionKey
from tenants.choices import ClusterState
from tenants.models import VirtualCluster
from tests.fabrics.conftest import programmed
from vsphere.models import VFAssignment
from vsphere.placement import vfs as vf_allocation

DESIRED, REPORT, JOIN = "agent-fabric-desired", "agent-fabric-report", "agent-fabric-join"


def _members(doc: dict) -> dict[str, list[str]]:
    return {p["pkey"]: p["full"] for p in doc["partitions"]}


def test_approving_ib_clusters_of_two_tenants_gives_each_its_own_partition_of_its_vfs(world, site):
    a = site.approve(world.tenant_a, world.owner_a)
    b = site.approve(world.tenant_b, world.owner_b)
    doc = wire.parse_desired(site.desired())  # what the agent would accept, unchanged
    keys = {k.tenant_id: k.text for k in PartitionKey.objects.filter(released__isnull=True)}
    vfs = {c.tenant_id: sorted(VFAssignment.objects.filter(cluster=c).values_list("port_guid", flat=True))
           for c in (a, b)}  # fmt: skip
    assert all(guid and guid.startswith("0x005056fffea0") for guids in vfs.values() for guid in guids)
    assert _members(doc) == {
        keys[world.tenant_a.pk]: vfs[world.tenant_a.pk],
        keys[world.tenant_b.pk]: vfs[world.tenant_b.pk],
    }
    assert keys[world.tenant_a.pk] != keys[world.tenant_b.pk]


def test_every_change_moves_the_generation_and_the_same_intent_keeps_it(world, site):
    start = site.desired()["generation"]
    cluster = site.approve(world.tenant_a, world.owner_a)
    after_approval = site.desired()["generation"]
    hooks.cluster_held_changed(cluster)  # nothing changed: no new generation
    assert after_approval == start + 1 == site.desired()["generation"]


def test_the_agent_joins_once_and_reads_its_desired_state_with_an_etag(world, site, api):
    site.approve(world.tenant_a, world.owner_a)
    url = reverse(DESIRED, kwargs={"fabric": "ib0"})
    first = site.agent().get(url)
    assert first.status_code == 200 and first.json() == site.desired()
    again = site.agent().get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    assert api().post(reverse(JOIN), {"token": site.join_token}, format="json").status_code == 404  # spent


def test_a_credential_reads_only_its_own_fabric_and_a_node_credential_none(world, site):
    Fabric.objects.create(name="ib1")
    assert site.agent().get(reverse(DESIRED, kwargs={"fabric": "ib1"})).status_code == 404
    pool = agent_services.create_pool("rack")
    _, raw = agent_services.create_join_token(pool)
    _, node_credential = agent_services.join(raw, "n1", {}, [])
    assert site.agent(node_credential).get(reverse(DESIRED, kwargs={"fabric": "ib0"})).status_code == 401


def test_a_report_with_every_member_programmed_makes_the_partitions_realized_and_the_clusters_unblocked(world, site):
    cluster = site.approve(world.tenant_a, world.owner_a)
    assert hooks.cluster_waiting(cluster)  # approved, nothing programmed yet: not ready
    response = site.agent().post(reverse(REPORT, kwargs={"fabric": "ib0"}), programmed(site.desired()), format="json")
    assert response.status_code == 204
    assert PartitionKey.objects.get(tenant=world.tenant_a, released__isnull=True).state == "realized"
    assert hooks.cluster_waiting(cluster) == []


def test_a_port_that_loses_its_key_degrades_its_ready_cluster_and_the_fabric_shows_drift(world, site):
    cluster = site.approve(world.tenant_a, world.owner_a)
    url = reverse(REPORT, kwargs={"fabric": "ib0"})
    site.agent().post(url, programmed(site.desired()), format="json")
    VirtualCluster.objects.filter(pk=cluster.pk).update(state=ClusterState.READY)
    lost = VFAssignment.objects.filter(cluster=cluster).values_list("port_guid", flat=True).first()
    report = programmed(site.desired(), extra={lost: ["0x7fff"]})  # an out-of-band edit removed the key
    assert site.agent().post(url, report, format="json").status_code == 204
    cluster.refresh_from_db()
    site.fabric.refresh_from_db()
    assert cluster.state == ClusterState.DEGRADED and lost in cluster.status_message
    assert PartitionKey.objects.get(tenant=world.tenant_a, released__isnull=True).state == "degraded"
    assert lost in site.fabric.drift


def test_a_tenant_port_left_a_full_member_of_the_default_partition_is_drift(world, site):
    site.approve(world.tenant_a, world.owner_a)
    doc = site.desired()
    guid = doc["partitions"][0]["full"][0]
    report = programmed(doc, extra={guid: [f"0x{int(doc['partitions'][0]['pkey'], 16) | 0x8000:04x}", "0xffff"]})
    site.agent().post(reverse(REPORT, kwargs={"fabric": "ib0"}), report, format="json")
    key = PartitionKey.objects.get(tenant=world.tenant_a, released__isnull=True)
    assert key.state == "degraded" and "default partition" in key.message


def test_bad_reports_are_400_and_store_nothing(world, site):
    site.approve(world.tenant_a, world.owner_a)
    good = programmed(site.desired())
    url = reverse(REPORT, kwargs={"fabric": "ib0"})
    guid = next(iter(good["ports"]))
    bad = [
        good | {"ports": {guid.upper(): ["0x8010"]}},
        good | {"ports": {guid: ["0x8010\n}"]}},
        good | {"ports": {"0x0000000000000000": []}},
        good | {"sm": {"kind": "opensm", "m_key_protect": 9}},
        good | {"errors": ["x" * 5000]},
        good | {"extra": 1},
        good | {"applied_generation": True},
    ]
    for body in bad:
        assert site.agent().post(url, body, format="json").status_code == 400, body
    site.fabric.refresh_from_db()
    assert site.fabric.last_seen is None or site.fabric.last_report == {}


def test_decommission_removes_the_ports_and_the_last_workload_releases_the_partition(world, site):
    from tenants import realizers

    first = site.approve(world.tenant_a, world.owner_a)
    second = site.approve(world.tenant_a, world.owner_a, name="mpi-2")
    key = PartitionKey.objects.get(tenant=world.tenant_a, released__isnull=True)
    for cluster, left in ((first, 1), (second, 0)):
        vf_allocation.release(cluster)  # what the reconcile does once the VMs are gone
        realizers.held_changed(cluster)
        assert len([p for p in site.desired()["partitions"] if p["full"]]) == left
    key.refresh_from_db()
    assert key.released is not None and site.desired()["partitions"] == []


def test_node_hca_ports_of_a_pool_on_the_fabric_join_the_partition_of_the_tenant_whose_segment_it_carries(world, site):
    from fabrics import services as fabric_services
    from netpolicy import segments
    from netpolicy.models import Pool

    pool = agent_services.create_pool("ib-rack")
    _, raw = agent_services.create_join_token(pool)
    node, _ = agent_services.join(raw, "n1", {}, [])
    report = {"generation": 0, "ib_ports": [{"device": "mlx5_0", "port": 1, "guid": "0x0002c90300b00001",
                                             "netdev": "ib0"}]}  # fmt: skip
    agent_services.record_observed(node, report)
    fabric_services.update_fabric(site.fabric, {}, pools=[pool])
    Pool.objects.create(name="vnis", kind="vni", first=5000, last=5999)
    segments.create_segment(world.tenant_b, world.admin, {"name": "ib", "kind": "overlay", "node_pool": pool})
    assert "0x0002c90300b00001" in [g for p in site.desired()["partitions"] for g in p["full"]]


def test_the_nodes_document_names_its_ipoib_parents_and_the_tenants_pkey_on_that_fabric(world, site):
    import json

    from agents import refresh
    from agents.models import Node, TenantPart
    from fabrics import services as fabric_services
    from netpolicy import segments
    from netpolicy.models import Pool

    pool = agent_services.create_pool("ib-rack")
    _, raw = agent_services.create_join_token(pool)
    node, _ = agent_services.join(raw, "n1", {}, [])
    port = {"device": "mlx5_0", "port": 1, "guid": "0x0002c90300b00001", "netdev": "ib0"}
    agent_services.record_observed(node, {"generation": 0, "ib_ports": [port]})
    fabric_services.update_fabric(site.fabric, {}, pools=[pool])
    Pool.objects.create(name="vnis", kind="vni", first=5000, last=5999)
    segments.create_segment(world.tenant_b, world.admin, {"name": "ib", "kind": "overlay", "node_pool": pool})
    refresh.refresh([world.tenant_b.pk])
    key = PartitionKey.objects.get(tenant=world.tenant_b, released__isnull=True)
    assert json.loads(Node.objects.get(pk=node.pk).desired_node)["ipoib_parents"] == ["ib0"]
    assert TenantPart.objects.get(pool=pool, tenant=world.tenant_b).entry["pkey"] == key.text


def test_the_agent_may_name_its_host_when_joining_and_report_multiline_errors(world, site, api):
    from fabrics import services as fabric_services

    _, raw = fabric_services.create_join_token(site.fabric)
    answer = api().post(reverse(JOIN), {"token": raw, "hostname": "SM-01.hpc.example.edu"}, format="json")
    assert answer.status_code == 201 and answer.json()["fabric"] == "ib0"
    report = programmed(site.desired()) | {"errors": ["opensm said:\nline 2"]}
    assert site.agent(answer.json()["credential"]).post(
        reverse(REPORT, kwargs={"fabric": "ib0"}), report, format="json").status_code == 204  # fmt: skip
    assert site.agent().get(reverse(DESIRED, kwargs={"fabric": "ib0"})).status_code == 401  # re-enrolment revoked it


def test_a_node_port_without_an_ipoib_interface_is_reported_with_a_null_netdev(world, site):
    from agents.serializers import ObservedStateSerializer

    port = {"device": "mlx5_1", "port": 1, "guid": "0x0002c90300b00002", "netdev": None}
    assert ObservedStateSerializer(data={"generation": 0, "ib_ports": [port]}).is_valid()


def test_a_node_port_two_tenants_segments_share_joins_neither_partition_and_the_fabric_says_so(world, site):
    from fabrics import hooks as fabric_hooks
    from fabrics import services as fabric_services
    from netpolicy import segments
    from netpolicy.models import Pool

    pool = agent_services.create_pool("shared-rack")
    _, raw = agent_services.create_join_token(pool)
    node, _ = agent_services.join(raw, "n1", {}, [])
    port = {"device": "mlx5_0", "port": 1, "guid": "0x0002c90300b00001", "netdev": "ib0"}
    agent_services.record_observed(node, {"generation": 0, "ib_ports": [port]})
    fabric_services.update_fabric(site.fabric, {}, pools=[pool])
    Pool.objects.create(name="vnis", kind="vni", first=5000, last=5999)
    for tenant in (world.tenant_a, world.tenant_b):
        last = segments.create_segment(tenant, world.admin, {"name": "ib", "kind": "overlay", "node_pool": pool})
    assert all(port["guid"] not in p["full"] for p in site.desired()["partitions"])
    site.fabric.refresh_from_db()
    assert site.fabric.conflicts == {port["guid"]: sorted([world.tenant_a.pk, world.tenant_b.pk])}
    assert "joins no partition" in fabric_hooks.segment_waiting(last)[0]


def test_a_fabric_agent_beyond_its_own_rate_gets_429_with_retry_after_and_another_fabric_does_not(
    world, site, monkeypatch
):
    from django.test import override_settings

    from agents.throttling import NodeRateThrottle
    from fabrics import services as fabric_services

    other = fabric_services.create_fabric({"name": "ib1"})
    _, credential = fabric_services.join(fabric_services.create_join_token(other)[1])
    rates = {"user": "1000/minute", "anon": "3/minute", "join": "100/minute", "bearer_failure": "100/minute",
             "node": "1000/minute", "fabric": "5/minute"}  # fmt: skip
    with override_settings(API_RATES=rates):
        # The rate counts in fixed minutes: the whole burst falls 20 s into one, however slow the machine.
        monkeypatch.setattr(NodeRateThrottle, "clock", staticmethod(lambda: 1_800_000_020.0))
        answers = [site.agent().get(reverse(DESIRED, kwargs={"fabric": "ib0"})) for _ in range(6)]
        elsewhere = site.agent(credential).get(reverse(DESIRED, kwargs={"fabric": "ib1"}))
    assert [a.status_code for a in answers] == [200] * 5 + [429]  # 6 from one address, beyond anon's 3: per fabric
    assert 0 < int(answers[-1]["Retry-After"]) <= 60
    assert elsewhere.status_code == 200
