"""Issue 32 end to end: the portal's intent programmed by real OpenSM on a simulated fabric through the real agent.

A live portal (pytest-django's live_server, PostgreSQL) declares fabric ib0 through its admin API; the real
fabric agent joins with a one-time token and passes against it over HTTP; ibsim's ports carry the VF GUIDs the
portal set and the HCA GUIDs two nodes reported. Every isolation assertion reads the P_Key tables with
`smpquery` (the harness), never with the agent's reader nor from the portal's report.
"""

from dataclasses import dataclass, field

import pytest
from django.test import Client
from enclave_agent import fabric_wire as wire
from enclave_agent.fabric.agent import FabricClient, join, one_pass
from rest_framework.test import APIClient

from agents import refresh
from agents import services as agent_services
from fabrics.models import PartitionKey
from netpolicy import segments
from netpolicy.models import Pool
from tenants import realizers
from tenants import services as tenant_services
from tenants.choices import ClusterState, SiteKind
from tests.fabric.simfabric import SimFabric, available
from tests.fabrics.conftest import VF_GUIDS
from tests.fabrics.test_readiness_db import _converged
from tests.vsphere.sites import capacity_site, cluster_of
from vsphere.models import VFAssignment

pytestmark = [pytest.mark.django_db(transaction=True)]
NODE_GUIDS = {"a-node": "0x0002c903000a0001", "b-node": "0x0002c903000b0001"}
STORAGE = "0x0002c903005f0001"
FULL, DEFAULT_FULL, DEFAULT_LIMITED = 0x8000, 0xFFFF, 0x7FFF


def violations(tables: dict[str, list[int]], ports_of: dict[str, set[str]]) -> list[str]:
    """The checker: every partition in which ports of two tenants are both full members (they can talk)."""
    owner = {guid: tenant for tenant, guids in ports_of.items() for guid in guids}
    tenants_in: dict[int, set[str]] = {}
    for guid, table in tables.items():
        for entry in table:
            if guid in owner and entry & FULL:
                tenants_in.setdefault(entry & 0x7FFF, set()).add(owner[guid])
    return [f"{' and '.join(sorted(t))} are full members of 0x{k:04x}" for k, t in sorted(tenants_in.items())
            if len(t) > 1]  # fmt: skip


@pytest.fixture
def held(monkeypatch):
    """Approval and the fabric's report queue no vSphere reconcile: the test runs it (tasks._succeed) itself."""
    queued = []
    monkeypatch.setattr(realizers.get(SiteKind.VSPHERE), "queue", queued.append)
    return queued


class Site:
    """The live portal: a site admin's API and pages, two tenants' clusters and node segments, the fabric agent."""

    def __init__(self, world, url: str, workdir):
        self.world, self.url, self.workdir = world, url, workdir
        self.admin = self.client(world.admin)
        _, pfs = capacity_site()
        Pool.objects.create(name="vnis", kind="vni", first=5000, last=5999)
        self.pools = {name: self._node_pool(name) for name in NODE_GUIDS}
        hosts = sorted({pf.host_id for pf in pfs})
        body = {"name": "ib0", "kind": "opensm", "pkey_first": 0x10, "pkey_last": 0x40, "vf_guid_first": VF_GUIDS,
                "vf_guid_count": 4096, "hosts": hosts, "pools": [p.pk for p in self.pools.values()]}  # fmt: skip
        answer = self.admin.post("/api/v1/fabrics/", body, format="json")
        assert answer.status_code == 201, answer.content
        self.fabric_id = answer.json()["id"]
        shared = {"fabric": self.fabric_id, "guid": STORAGE, "description": "Lustre"}
        assert self.admin.post("/api/v1/fabric-shared-ports/", shared, format="json").status_code == 201
        token = self.admin.post("/api/v1/fabric-join-tokens/", {"fabric": self.fabric_id}, format="json").json()
        joined = join(url, token["token"], "smhost")  # the real agent's join, over HTTP
        assert joined["fabric"] == "ib0"
        self.credential = joined["credential"]
        self.agent = None

    @staticmethod
    def client(user) -> APIClient:
        client = APIClient()
        client.force_authenticate(user)
        return client

    def _node_pool(self, name: str):
        """A pool with one node that reported one HCA port, as the node agent's report carries it."""
        pool = agent_services.create_pool(f"rack-{name}")
        _, raw = agent_services.create_join_token(pool)
        node, _ = agent_services.join(raw, name, {}, [])
        port = {"device": "mlx5_0", "port": 1, "guid": NODE_GUIDS[name], "netdev": "ib0"}
        agent_services.record_observed(node, {"generation": 0, "ib_ports": [port]})
        return pool

    def approve(self, tenant, owner, name: str):
        cluster = cluster_of(tenant, owner, submit=True, name=name)
        cluster = tenant_services.approve_cluster(cluster, self.world.admin)
        tenant_services.set_observed(cluster, ClusterState.PROVISIONING, "Reconciling on vSphere")
        return cluster

    def segment(self, tenant, node: str):
        data = {"name": f"ib-{node}", "kind": "overlay", "node_pool": self.pools[node]}
        segment = segments.create_segment(tenant, self.world.admin, data)
        refresh.refresh([tenant.pk])  # what the worker does on commit: compile the pool's desired state
        return segment

    def state(self, cluster) -> tuple[str, str]:
        """The cluster as its owner's API shows it."""
        body = self.client(self.world.admin).get(f"/api/v1/clusters/{cluster.pk}/").json()
        return body["state"], body["status_message"]

    def waiting_for(self, segment) -> list[str]:
        """What the segment's API says it still waits for."""
        return self.client(self.world.admin).get(f"/api/v1/segments/{segment.pk}/").json()["waiting_for"]

    def page(self, url: str) -> str:
        client = Client()
        client.force_login(self.world.admin)
        response = client.get(url)
        assert response.status_code == 200
        return response.content.decode()

    def agent_pass(self, fabric: SimFabric) -> dict:
        """One pass of one long-lived fabric agent (it remembers suspects across passes, as the daemon does)."""
        self.agent = self.agent or fabric.agent(self.workdir / "agent", restart=True, reprogram_every=0)
        client = FabricClient(self.url, "ib0", self.credential)
        try:
            return one_pass(self.agent, client, None)[0]
        finally:
            client.close()

    def watch_pass(self, fabric: SimFabric) -> dict:
        """A report of the fabric as it is, by an agent with no document to apply (a fresh state directory)."""
        client = FabricClient(self.url, "ib0", self.credential)
        try:
            report = fabric.agent(self.workdir / "watcher").run_pass(None)
            client.report(report)
            return report
        finally:
            client.close()


def _ports(cluster) -> set[str]:
    return set(VFAssignment.objects.filter(cluster=cluster).values_list("port_guid", flat=True))


def _key(tenant) -> int:
    return PartitionKey.objects.get(tenant=tenant, released__isnull=True).pkey


def _assert_isolated(tables, ports_of: dict[str, set[str]], keys: dict[str, int]) -> None:
    """Each tenant port: full member of its own key, not of another tenant's, limited (not full) in 0x7fff."""
    for tenant, guids in ports_of.items():
        others = {k for t, k in keys.items() if t != tenant}
        for guid in guids:
            table = set(tables[guid])
            assert keys[tenant] | FULL in table, (tenant, guid, table)
            assert not {k | FULL for k in others} & table and not others & table, (tenant, guid, table)
            assert DEFAULT_LIMITED in table and DEFAULT_FULL not in table, (tenant, guid, table)
    assert violations(tables, ports_of) == []


@dataclass
class Run:
    """Two tenants' approved clusters and node segments, their ports and their keys."""

    a: object
    b: object
    seg_a: object
    seg_b: object
    ports_of: dict = field(default_factory=dict)
    keys: dict = field(default_factory=dict)
    vfs_b: set = field(default_factory=set)


def _intent(site, world) -> Run:
    """Approve both tenants' clusters and node segments; every tenant port is known to the portal."""
    a, b = site.approve(world.tenant_a, world.owner_a, "mpi-a"), site.approve(world.tenant_b, world.owner_b, "mpi-b")
    run = Run(a, b, site.segment(world.tenant_a, "a-node"), site.segment(world.tenant_b, "b-node"))
    run.ports_of = {"a": _ports(run.a) | {NODE_GUIDS["a-node"]}, "b": _ports(run.b) | {NODE_GUIDS["b-node"]}}
    run.keys = {"a": _key(world.tenant_a), "b": _key(world.tenant_b)}
    run.vfs_b = _ports(run.b)
    assert len(run.ports_of["a"]) > 1 and len(run.ports_of["b"]) > 1 and run.keys["a"] != run.keys["b"]
    return run


def _programmed_then_ready(site, fabric, run, held) -> None:
    """Converged on vSphere but Provisioning (with the reason) until the fabric's report; then Ready."""
    assert "waiting for InfiniBand fabric ib0" in site.page(f"/network/segments/{run.seg_a.pk}/")
    assert "InfiniBand fabric ib0 to program partition" in site.waiting_for(run.seg_a)[0]
    for cluster in (run.a, run.b):
        assert _converged(cluster) == "waiting"
        state, message = site.state(cluster)
        assert state == ClusterState.PROVISIONING and "InfiniBand fabric ib0 to program partition" in message
    held.clear()
    assert site.agent_pass(fabric)["errors"] == []
    _assert_isolated(fabric.tables(), run.ports_of, run.keys)
    assert set(fabric.tables()[STORAGE]) == {DEFAULT_FULL}  # storage: full in the default partition only
    assert sorted(held) == sorted([run.a.pk, run.b.pk])  # the report re-queued both waiting reconciles
    for cluster in (run.a, run.b):
        assert _converged(cluster) == "ready" and site.state(cluster)[0] == ClusterState.READY
    assert "waiting" not in site.page(f"/network/segments/{run.seg_a.pk}/") and site.waiting_for(run.seg_a) == []


def _edited_partitions_conf_degrades_then_is_restored(site, fabric, run) -> None:
    """Out of band, someone puts one of A's VFs into B's partition and makes OpenSM apply it."""
    victim = sorted(_ports(run.a))[0]
    text = fabric.partitions.read_text()
    head = next(line for line in text.splitlines() if line.startswith(wire.partition_name(run.keys["b"])))
    fabric.partitions.write_text(text.replace(head, f"{head}\n  {victim}=full,"))
    fabric.sm(site.workdir / "agent").reload()
    assert violations(fabric.tables(), run.ports_of) == [f"a and b are full members of 0x{run.keys['b']:04x}"]
    site.watch_pass(fabric)  # the fabric as it is now reaches the portal
    state, message = site.state(run.a)
    assert state == ClusterState.DEGRADED and victim in message
    assert victim in site.page(f"/fabrics/{site.fabric_id}/")
    restored = site.agent_pass(fabric)  # the next pass rewrites partitions.conf
    assert any(e.startswith("drift:") for e in restored["errors"])
    _assert_isolated(fabric.tables(), run.ports_of, run.keys)
    assert _converged(run.a) == "ready" and site.state(run.a)[0] == ClusterState.READY


def _restarted_and_rogue_written_tables_come_back(site, fabric, run) -> None:
    """OpenSM restarted keeps every table; a table written past the SM is degraded, then reprogrammed."""
    before = fabric.tables()
    fabric.restart_opensm()
    assert fabric.tables() == before
    # Root on B's node writes its port into A's partition past the SM (no M_Key): OpenSM does not notice it.
    b_node = next(name for name, guid in fabric.guids.items() if guid == NODE_GUIDS["b-node"])
    fabric.rogue_write(b_node, [DEFAULT_FULL, run.keys["a"] | FULL])
    assert f"a and b are full members of 0x{run.keys['a']:04x}" in violations(fabric.tables(), run.ports_of)
    site.agent_pass(fabric)  # reported: B's partition is degraded; a first sighting is only a suspicion
    assert "restore (degraded: drift)" in site.waiting_for(run.seg_b)[0]
    second = site.agent_pass(fabric)  # seen twice: the agent has OpenSM write every table again
    assert second["errors"] == ["drift: P_Key tables were changed on the fabric, not through the SM; "
                                "it reprogrammed them"]  # fmt: skip
    assert fabric.tables() == before and site.waiting_for(run.seg_b) == []


def _decommissioned_ports_and_partition_are_gone(site, fabric, run, world) -> None:
    """B's cluster decommissioned: its VFs leave; its segment retired (its last workload): its partition goes."""
    tenant_services.decommission_cluster(run.b, world.owner_b)
    assert _converged(run.b) == "retired"
    assert site.agent_pass(fabric)["errors"] == []
    tables = fabric.tables()
    assert all(set(tables[guid]) == {DEFAULT_LIMITED} for guid in run.vfs_b)
    assert run.keys["b"] | FULL in tables[NODE_GUIDS["b-node"]]
    segments.transition_segment(run.seg_b, world.admin, "retire", "retired")
    assert site.agent_pass(fabric)["errors"] == []
    tables = fabric.tables()
    assert set(tables[NODE_GUIDS["b-node"]]) == {DEFAULT_LIMITED}
    assert not any(run.keys["b"] in {e & 0x7FFF for e in t} for t in tables.values())
    assert PartitionKey.objects.get(tenant=world.tenant_b).released is not None
    _assert_isolated(tables, {"a": run.ports_of["a"]}, {"a": run.keys["a"]})


def test_two_tenants_clusters_and_node_segments_are_isolated_by_real_opensm_from_approval_to_decommission(
    world, live_server, held, tmp_path
):
    reason = available()
    if reason:
        pytest.skip(reason)
    site = Site(world, live_server.url, tmp_path)
    run = _intent(site, world)
    sim_ports = {f"p{n}": g for n, g in enumerate(sorted(run.ports_of["a"] | run.ports_of["b"] | {STORAGE}))}
    with SimFabric(tmp_path / "fabric", sim_ports | {"idle": None}) as fabric:
        # Negative control: without the agent every tenant port is a full member of 0x7fff; the checker says so.
        tables = fabric.tables()
        assert all(DEFAULT_FULL in tables[guid] for guids in run.ports_of.values() for guid in guids)
        assert violations(tables, run.ports_of) == ["a and b are full members of 0x7fff"]
        with pytest.raises(AssertionError):
            _assert_isolated(tables, run.ports_of, run.keys)  # the isolation assertion below fails without the agent
        _programmed_then_ready(site, fabric, run, held)
        _edited_partitions_conf_degrades_then_is_restored(site, fabric, run)
        _restarted_and_rogue_written_tables_come_back(site, fabric, run)
        _decommissioned_ports_and_partition_are_gone(site, fabric, run, world)
