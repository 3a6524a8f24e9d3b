"""Node enrolment, node-scoped credentials, desired state with ETag and long-poll, observed state."""

import concurrent.futures
import datetime
import gzip
import ipaddress
import threading

import psycopg
import pytest
from django.db import OperationalError, connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from agents import documents, hotpath, refresh, services, tasks
from agents.choices import NodeStatus
from agents.models import JoinToken, Node
from agents.throttling import NodeRateThrottle
from audit.context import ActorKind
from audit.models import AuditEvent
from tests.conftest import pool_of

pytestmark = pytest.mark.django_db

IFACES = [{"name": "em1", "address": "10.10.0.5/24"}]


@pytest.fixture
def pool(db):
    pool = services.create_pool("rack-1")
    services.add_subnet(pool, "10.10.0.0/24", 4790)
    return pool


def agent(credential=None):
    client = APIClient()
    if credential:
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {credential}")
    return client


def enrol(pool, name="node-1"):
    _, raw = services.create_join_token(pool)
    response = agent().post("/api/v1/agents/join", {"token": raw, "hostname": name, "capabilities": {"vrf": True},
                                                     "interfaces": IFACES}, format="json")  # fmt: skip
    assert response.status_code == 201, response.content
    return Node.objects.get(name=response.json()["node"]), response.json()["credential"]


def test_a_join_token_works_once_and_the_credential_is_stored_hashed(pool):
    _, raw = services.create_join_token(pool)
    body = {"token": raw, "hostname": "node-1", "capabilities": {"vrf": False}}
    first = agent().post("/api/v1/agents/join", body, format="json")
    assert first.status_code == 201
    node = Node.objects.get(name="node-1")
    (stored,) = node.credentials.all()
    assert first.json()["credential"] not in stored.credential_hash and stored.hint == first.json()["credential"][:12]
    assert first.json()["expires_in"] > 29 * 86400
    assert agent().post("/api/v1/agents/join", body | {"hostname": "node-2"}, format="json").status_code == 404
    event = AuditEvent.objects.get(action="node.enrol")
    assert event.actor_kind == ActorKind.AGENT
    assert AuditEvent.objects.get(action="node.credential.issue").after["credential_hash"] == "********"


def test_an_expired_token_and_a_taken_hostname_are_refused(pool):
    token, raw = services.create_join_token(pool)
    JoinToken.objects.filter(pk=token.pk).update(expires_at=timezone.now() - datetime.timedelta(minutes=1))
    assert agent().post("/api/v1/agents/join", {"token": raw, "hostname": "n1"}, format="json").status_code == 404
    enrol(pool, "n1")
    _, raw2 = services.create_join_token(pool)
    response = agent().post("/api/v1/agents/join", {"token": raw2, "hostname": "n1"}, format="json")
    assert response.status_code == 409 and "re-enrol" in response.json()["detail"]
    _, named = services.create_join_token(pool, node_name="n1")
    assert agent().post("/api/v1/agents/join", {"token": named, "hostname": "n1"}, format="json").status_code == 201


def test_a_node_reads_only_its_own_state_and_no_tenant_api(pool, world):
    _, cred1 = enrol(pool, "node-1")
    enrol(pool, "node-2")
    assert agent(cred1).get("/api/v1/agents/node-1/desired-state").status_code == 200
    assert agent(cred1).get("/api/v1/agents/node-2/desired-state").status_code == 404
    report = agent(cred1).post("/api/v1/agents/node-2/observed-state", {"generation": 1}, format="json")
    assert report.status_code == 404
    assert agent(cred1).get("/api/v1/clusters/").status_code == 401
    assert agent().get("/api/v1/agents/node-1/desired-state").status_code == 401
    assert agent("encn_forged").get("/api/v1/agents/node-1/desired-state").status_code == 401


def test_desired_state_has_the_agents_wire_format_and_an_etag(pool):
    node, cred = enrol(pool)
    response = agent(cred).get("/api/v1/agents/node-1/desired-state")
    doc = response.json()
    underlay = {"underlay": "em1", "dstport": 4790, "address": "10.10.0.5/24", "group": "239.1.1.1", "ttl": 5}
    assert doc["node"] == {"name": "node-1", "address": "10.10.0.5", "interfaces": [IFACES[0] | {"gateway": None}],
                           "vxlans": [underlay]}  # fmt: skip
    assert doc["tenants"] == [] and doc["schema"] == 2 and "generation" in doc
    again = agent(cred).get("/api/v1/agents/node-1/desired-state", HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304


def test_a_node_asking_for_gzip_gets_the_same_document_gzip_encoded_under_a_weak_etag(pool):
    node, cred = enrol(pool)
    plain = agent(cred).get("/api/v1/agents/node-1/desired-state")
    packed = agent(cred).get("/api/v1/agents/node-1/desired-state", HTTP_ACCEPT_ENCODING="deflate, gzip;q=0.8")
    assert packed["Content-Encoding"] == "gzip" and packed["Vary"] == plain["Vary"] == "Accept-Encoding"
    assert gzip.decompress(packed.content) == plain.content and len(packed.content) < len(plain.content)
    assert packed["ETag"] == "W/" + plain["ETag"]
    for known in (packed["ETag"], plain["ETag"]):  # If-None-Match compares weakly: either names the document
        again = agent(cred).get("/api/v1/agents/node-1/desired-state", HTTP_IF_NONE_MATCH=known,
                                HTTP_ACCEPT_ENCODING="gzip")  # fmt: skip
        assert again.status_code == 304 and again["ETag"] == known


@pytest.mark.parametrize("accept", ["", "identity", "br", "gzip;q=0", "GZIP; Q=0.000", "deflate"])
def test_a_node_not_asking_for_gzip_gets_the_plain_document(pool, accept):
    node, cred = enrol(pool)
    response = agent(cred).get("/api/v1/agents/node-1/desired-state", HTTP_ACCEPT_ENCODING=accept)
    assert not response.has_header("Content-Encoding") and response.json()["node"]["name"] == "node-1"
    assert not response["ETag"].startswith("W/")


@pytest.mark.django_db(transaction=True)
def test_a_long_poll_returns_as_soon_as_intent_changes(pool):
    node, cred = enrol(pool)
    first = agent(cred).get("/api/v1/agents/node-1/desired-state")
    result = {}

    def poll():
        try:
            result["response"] = agent(cred).get("/api/v1/agents/node-1/desired-state?wait=30",
                                                 HTTP_IF_NONE_MATCH=first["ETag"])  # fmt: skip
        finally:
            connection.close()  # the thread's own connection, or the test database cannot be dropped

    thread = threading.Thread(target=poll)
    thread.start()
    thread.join(timeout=1.0)  # let the poll subscribe; correctness does not depend on it
    services.update_node(node, interfaces=IFACES + [{"name": "em2", "address": "10.10.0.6/24"}])
    thread.join(timeout=40)
    response = result["response"]
    assert response.status_code == 200
    assert [i["name"] for i in response.json()["node"]["interfaces"]] == ["em1", "em2"]
    assert response.json()["generation"] > first.json()["generation"]


def test_observed_state_sets_ready_or_not_ready_and_is_audited(pool):
    node, cred = enrol(pool)
    ok = {"generation": 3, "tenants": {"7": {"status": "ready", "errors": []}}, "node_errors": []}
    assert agent(cred).post("/api/v1/agents/node-1/observed-state", ok, format="json").status_code == 204
    node.refresh_from_db()
    assert node.status == NodeStatus.READY and node.applied_generation == 3
    bad = {"generation": 3, "tenants": {"7": {"status": "failed", "errors": ["vxlan: File exists"]}}}
    agent(cred).post("/api/v1/agents/node-1/observed-state", bad, format="json")
    node.refresh_from_db()
    assert node.status == NodeStatus.NOT_READY and node.tenant_errors == {"7": ["vxlan: File exists"]}
    assert node.last_error == ""  # the node's own errors only: each tenant's are kept apart
    assert AuditEvent.objects.filter(action="node.observed", object_id=str(node.pk)).count() == 2


def test_a_silent_node_becomes_not_ready(pool):
    node, cred = enrol(pool)
    agent(cred).post("/api/v1/agents/node-1/observed-state", {"generation": 1}, format="json")
    Node.objects.filter(pk=node.pk).update(last_seen=timezone.now() - datetime.timedelta(minutes=5))
    assert tasks.mark_silent_nodes() == 1
    node.refresh_from_db()
    assert node.status == NodeStatus.NOT_READY and "silent since" in node.last_error


def test_a_poll_is_a_heartbeat_written_at_most_every_fifteen_seconds(pool):
    node, cred = enrol(pool)
    old = timezone.now() - datetime.timedelta(minutes=5)
    Node.objects.filter(pk=node.pk).update(last_seen=old)
    assert agent(cred).get("/api/v1/agents/node-1/desired-state").status_code == 200
    heard = Node.objects.get(pk=node.pk).last_seen
    assert timezone.now() - heard < datetime.timedelta(seconds=5)
    agent(cred).get("/api/v1/agents/node-1/desired-state")
    assert Node.objects.get(pk=node.pk).last_seen == heard  # within 15 s: not written again


@pytest.mark.django_db(transaction=True)
def test_a_heartbeat_commits_without_waiting_for_a_disk_flush_and_leaves_the_session_as_it_was(pool):
    node, _ = enrol(pool)
    with connection.cursor() as cursor:  # as a production database has it (the test database commits without)
        cursor.execute("SET synchronous_commit = on")
    with CaptureQueriesContext(connection) as queries:
        hotpath.seen(node.pk, timezone.now())
    sql = [q["sql"] for q in queries]
    assert [q.split()[0] for q in sql] == ["BEGIN", "SET", "UPDATE", "COMMIT"], sql  # one transaction
    assert sql[1] == "SET LOCAL synchronous_commit TO OFF" and sql[2].startswith('UPDATE "agents_node"')
    with connection.cursor() as cursor:
        cursor.execute("SHOW synchronous_commit")
        assert cursor.fetchone()[0] == "on"  # every other commit still waits for its flush


@pytest.fixture
def pooled():
    """The default connection through a real psycopg pool, as production configures it (ENCLAVE_DB_POOL_SIZE)."""
    with pool_of(2, timeout=5) as pool:
        yield pool


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("checked", [True, False])
def test_a_pooled_connection_whose_server_went_away_is_replaced_before_it_is_lent(checked):
    saved = connection.settings_dict["CONN_HEALTH_CHECKS"]
    assert saved  # portal/settings.py, for every process
    connection.settings_dict["CONN_HEALTH_CHECKS"] = checked
    try:
        with pool_of(1):  # one connection: the next lend is the one killed
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                (pid,) = cursor.fetchone()
            connection.close()  # back to the pool, as after a request
            with psycopg.connect(**connection.get_connection_params()) as other:  # as a failover would, for all
                other.execute("SELECT pg_terminate_backend(%s)", [pid])
            if checked:
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_backend_pid()")
                    assert cursor.fetchone()[0] != pid
            else:  # negative control: the pool lends the dead connection, and the request that gets it fails
                with pytest.raises(OperationalError), connection.cursor() as cursor:
                    cursor.execute("SELECT 1")
    finally:
        connection.settings_dict["CONN_HEALTH_CHECKS"] = saved


@pytest.mark.django_db(transaction=True)
def test_a_node_request_holds_no_pooled_connection_past_authentication_nor_while_compressing(pool, pooled, monkeypatch,
                                                                                             wait_for):  # fmt: skip
    node, credential = enrol(pool)
    held = []
    throttle, body = NodeRateThrottle.allow_request, documents.body
    monkeypatch.setattr(NodeRateThrottle, "allow_request",
                        lambda *a: held.append(("throttle", connection.connection)) or throttle(*a))  # fmt: skip
    monkeypatch.setattr(documents, "body", lambda *a: held.append(("compress", connection.connection)) or body(*a))
    response = agent(credential).get(f"/api/v1/agents/{node.name}/desired-state", HTTP_ACCEPT_ENCODING="gzip")
    assert response.status_code == 200 and response["Content-Encoding"] == "gzip"
    assert held == [("throttle", None), ("compress", None)]  # handed back to the pool both times
    # The pool's own threads grow it and take connections back: wait for them (a connection the request kept
    # would never come back; a loaded machine only makes them late).
    settled = lambda: (stats := pooled.get_stats())["pool_available"] == stats["pool_size"]  # noqa: E731
    assert wait_for(settled, 30), pooled.get_stats()


@pytest.mark.django_db(transaction=True)
def test_an_unpooled_connection_is_kept_through_a_node_request_rather_than_reopened(pool, monkeypatch):
    node, credential = enrol(pool)
    held, throttle = [], NodeRateThrottle.allow_request
    monkeypatch.setattr(NodeRateThrottle, "allow_request",
                        lambda *a: held.append(connection.connection is not None) or throttle(*a))  # fmt: skip
    assert agent(credential).get(f"/api/v1/agents/{node.name}/desired-state").status_code == 200
    assert held == [True]


@pytest.mark.django_db(transaction=True)
def test_nodes_woken_together_read_their_pools_document_once(pool, monkeypatch):
    node, _ = enrol(pool)
    documents._cache.clear()
    reads, real_read, start = [], documents._read, threading.Barrier(8)
    monkeypatch.setattr(documents, "_read", lambda pool_id: reads.append(pool_id) or real_read(pool_id))

    def serve():
        try:
            start.wait()
            return documents.body(state := documents.current(node.pk), documents.fragment(state), gzip=True)
        finally:
            connection.close()

    with concurrent.futures.ThreadPoolExecutor(8) as threads:
        answers = list(threads.map(lambda _: serve(), range(8)))
    assert reads == [pool.pk] and len(set(answers)) == 1


def test_the_node_list_leaves_out_each_nodes_last_report_and_its_detail_has_it(pool, api, world):
    node, cred = enrol(pool)
    report = {"generation": 1, "tenants": {"7": {"status": "failed", "errors": ["no VRF"]}}}
    assert agent(cred).post("/api/v1/agents/node-1/observed-state", report, format="json").status_code == 204
    admin = api(world.admin)
    (listed,) = admin.get("/api/v1/nodes/").json()["results"]
    assert "last_report" not in listed and listed["name"] == "node-1" and listed["applied_generation"] == 1
    detail = admin.get(f"/api/v1/nodes/{node.pk}/").json()
    assert detail["last_report"]["tenants"] == {"7": {"status": "failed", "errors": ["no VRF"]}}
    assert set(detail) - set(listed) == {"last_report"}


def test_bad_observed_reports_and_pool_input_are_400(pool, api, world):
    _, cred = enrol(pool)
    report = agent(cred).post("/api/v1/agents/node-1/observed-state", {"generation": -1}, format="json")
    assert report.status_code == 400
    admin = api(world.admin)
    assert admin.post("/api/v1/pool-subnets/", {"pool": pool.pk, "cidr": "10.0.0.1/24", "dstport": 4791},
                      format="json").status_code == 400  # fmt: skip
    assert admin.post("/api/v1/pool-subnets/", {"pool": pool.pk, "cidr": "10.11.0.0/24", "dstport": 4790},
                      format="json").status_code == 400  # fmt: skip
    assert admin.post("/api/v1/node-pools/", {"name": "p2", "multicast_group": "10.0.0.1"},
                      format="json").status_code == 400  # fmt: skip


def overlay_site(world, pool):
    """VNI and address pools, an approved overlay segment of tenant A on the node pool, member UIDs."""
    from netpolicy import allocation, segments
    from users.models import PosixAccount

    allocation.create_pool(world.admin, {"name": "vnis", "kind": "vni", "first": 5000, "last": 5999})
    allocation.create_pool(world.admin, {"name": "v4", "kind": "ipv4", "cidr": "10.200.0.0/16",
                                         "default_prefix_length": 24})  # fmt: skip
    segment = segments.create_segment(world.tenant_a, world.admin, {"name": "uvn", "kind": "overlay",
                                                                    "node_pool": pool})  # fmt: skip
    PosixAccount.objects.create(user=world.member_a, uid=20001)
    PosixAccount.objects.create(user=world.member_b, uid=20002)
    return segment


def test_an_overlay_segment_on_the_pool_puts_its_tenant_on_every_node(pool, world):
    from enclave_agent.wire import expand

    segment = overlay_site(world, pool)
    _, cred = enrol(pool)
    refresh.refresh([world.tenant_a.pk, world.tenant_b.pk])  # what the worker does after commit
    doc = agent(cred).get("/api/v1/agents/node-1/desired-state").json()
    (tenant,) = expand(doc)["tenants"]
    tid = world.tenant_a.pk
    assert tenant["id"] == tid and tenant["vni"] == segment.vni and tenant["uids"] == [20001]
    assert tenant["vrf"] == {"name": f"vrf{tid}", "table": 0x01000000 + tid}
    assert tenant["vxlans"] == [{"device": f"em1u{tid}", "underlay": "em1", "dstport": 4790,
                                 "address": "10.10.0.5/24", "group": "239.1.1.1", "ttl": 5}]  # fmt: skip
    assert "table inet enclave" in doc["nftables"] and f'"vrf{tid}"' in doc["nftables"]


def test_the_desired_state_parses_with_the_agents_own_validator(pool, world):
    from enclave_agent.state import parse

    overlay_site(world, pool)
    _, cred = enrol(pool)
    refresh.refresh()
    state = parse(agent(cred).get("/api/v1/agents/node-1/desired-state").json())
    assert state.tenant_for_uid(20001).id == world.tenant_a.pk and state.tenant_for_uid(20002) is None


def test_cgnat_addresses_come_from_the_sites_cgnat_pool(pool, world):
    from netpolicy import allocation

    overlay_site(world, pool)
    allocation.create_pool(world.admin, {"name": "cgnat", "kind": "cgnat", "cidr": "100.100.0.0/16"})
    _, cred = enrol(pool)
    refresh.refresh()
    (tenant,) = agent(cred).get("/api/v1/agents/node-1/desired-state").json()["tenants"]
    assert tenant["cgnat"] == f"{ipaddress.ip_address('100.100.0.0') + world.tenant_a.pk + 1}/32"
