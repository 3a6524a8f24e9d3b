"""The node agent's wire contract has versions: nodes say what they read, pools are written in what all read."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from agents import desired, refresh, services, tasks
from agents.models import Node, PoolDocument
from audit.models import AuditEvent

pytestmark = pytest.mark.django_db

IFACES = [{"name": "em1", "address": "10.10.0.5/24"}]
REPORT = {"generation": 1, "tenants": {}, "node_errors": []}


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


def enrol(pool, name="node-1", **reads):
    _, raw = services.create_join_token(pool)
    body = {"token": raw, "hostname": name, "capabilities": {"vrf": True}, "interfaces": IFACES} | reads
    response = agent().post("/api/v1/agents/join", body, format="json")
    assert response.status_code == 201, response.content
    return Node.objects.get(name=name), response.json()["credential"]


def get_desired(name, credential, **headers):
    return agent(credential).get(f"/api/v1/agents/{name}/desired-state", **headers)


def test_the_join_and_every_report_store_what_the_node_reads_and_a_change_is_audited(pool):
    node, cred = enrol(pool, reads=[2, 1])
    assert Node.objects.get(pk=node.pk).wire_reads == [1, 2]
    response = agent(cred).post("/api/v1/agents/node-1/observed-state", REPORT | {"reads": [2, 3]}, format="json")
    assert response.status_code == 204
    assert Node.objects.get(pk=node.pk).wire_reads == [2, 3]
    event = AuditEvent.objects.get(action="node.wire_reads")
    assert event.before == {"wire_reads": [1, 2]} and event.after == {"wire_reads": [2, 3]}
    agent(cred).post("/api/v1/agents/node-1/observed-state", REPORT | {"reads": [2, 3]}, format="json")
    agent(cred).post("/api/v1/agents/node-1/observed-state", REPORT, format="json")  # silent: keeps what it said
    assert AuditEvent.objects.filter(action="node.wire_reads").count() == 1
    assert Node.objects.get(pk=node.pk).wire_reads == [2, 3]


BAD_READS = [[], [0], [100], [1, 1], ["2"], [True], [2.5], "1,2", None, list(range(1, 18))]


@pytest.mark.parametrize("reads", BAD_READS)
def test_a_join_or_report_with_bad_schema_versions_is_refused_with_400_and_nothing_stored(pool, reads):
    node, cred = enrol(pool, reads=[1, 2])
    _, raw = services.create_join_token(pool)
    body = {"token": raw, "hostname": "node-2", "reads": reads}
    assert agent().post("/api/v1/agents/join", body, format="json").status_code == 400
    report = agent(cred).post("/api/v1/agents/node-1/observed-state", REPORT | {"reads": reads}, format="json")
    assert report.status_code == 400
    assert not Node.objects.filter(name="node-2").exists() and Node.objects.get(pk=node.pk).wire_reads == [1, 2]


@pytest.mark.parametrize("header", ["", "1-2", "0", "1,,2", " 1", "2,2", "1;2", "100", "٢", ",".join(["1"] * 17)])
def test_a_desired_state_request_with_a_malformed_wire_header_is_refused_with_400(pool, header):
    _, cred = enrol(pool)
    assert get_desired("node-1", cred, HTTP_ENCLAVE_WIRE=header).status_code == 400


def test_a_node_that_reads_only_schema_1_is_told_to_upgrade_instead_of_sent_a_document(pool):
    _, cred = enrol(pool, reads=[1])
    refused = get_desired("node-1", cred)
    assert refused.status_code == 409 and "upgrade the agent" in refused.json()["detail"]
    assert "schema 2" in refused.json()["detail"]
    assert get_desired("node-1", cred, HTTP_ENCLAVE_WIRE="1").status_code == 409
    upgraded = get_desired("node-1", cred, HTTP_ENCLAVE_WIRE="1,2")  # the agent running now speaks for itself
    assert upgraded.status_code == 200 and upgraded.json()["schema"] == 2


def test_a_node_that_never_said_what_it_reads_counts_as_reading_schema_2(pool):
    node, cred = enrol(pool)
    assert node.wire_reads == [] and desired.reads_of(node.wire_reads) == (2,)
    assert get_desired("node-1", cred).json()["schema"] == 2


def test_a_pool_is_written_in_the_newest_schema_every_node_with_a_credential_reads():
    desired.WRITES, saved = (2, 3), desired.WRITES  # a portal that could write a schema 3
    try:
        assert desired.pool_schema([]) == 3
        assert desired.pool_schema([[2, 3], [1, 2, 3]]) == 3
        assert desired.pool_schema([[2, 3], [1, 2]]) == 2  # a mixed pool waits for its oldest agent
        assert desired.pool_schema([[2, 3], []]) == 2  # one that never said counts as schema 2
        assert desired.pool_schema([[3], [1]]) == 3  # nothing common: the newest, and node 2 is refused
        assert desired.wire_note([1, 2], "rack-1", 2) == "reads schema ≤ 2: holds pool rack-1 at schema 2"
        assert desired.wire_note([2, 3], "rack-1", 2) == ""
        assert desired.wire_note([1], "rack-1", 3).startswith("cannot read its pool's schema 3")
    finally:
        desired.WRITES = saved


def test_a_mixed_pool_moves_to_a_newer_schema_once_its_last_old_node_reads_it(
    pool, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(desired, "WRITES", (2, 3))  # the plumbing, with a portal that could write a schema 3
    sent = []  # what the services queue for the worker (tasks.assemble_pool runs here, as the worker would)
    monkeypatch.setattr(services.current_app, "send_task", lambda name, args: sent.append((name, args)))
    with django_capture_on_commit_callbacks(execute=True):
        _, new = enrol(pool, "node-new", reads=[2, 3])
    assert sent == [(services.ASSEMBLE_TASK, [pool.pk])]  # the pool was written at 2 before schema 3 existed
    tasks.assemble_pool(pool.pk)
    assert get_desired("node-new", new).json()["schema"] == 3
    with django_capture_on_commit_callbacks(execute=True):
        _, old = enrol(pool, "node-old", reads=[1, 2])
    tasks.assemble_pool(pool.pk)
    assert PoolDocument.objects.get(pool=pool).schema == 2 and len(sent) == 2  # the old node holds it back
    assert get_desired("node-new", new).json()["schema"] == 2
    with django_capture_on_commit_callbacks(execute=True):
        report = agent(old).post("/api/v1/agents/node-old/observed-state", REPORT | {"reads": [1, 2, 3]},
                                 format="json")  # fmt: skip
    assert report.status_code == 204 and len(sent) == 3  # upgraded
    tasks.assemble_pool(pool.pk)
    assert PoolDocument.objects.get(pool=pool).schema == 3 and not refresh.schema_moved(pool.pk)
    assert get_desired("node-new", new).json()["schema"] == 3 and get_desired("node-old", old).json()["schema"] == 3


def test_a_node_without_a_credential_holds_its_pool_back_no_longer(pool, monkeypatch):
    monkeypatch.setattr(desired, "WRITES", (2, 3))
    enrol(pool, "node-new", reads=[2, 3])
    old_node, _ = enrol(pool, "node-old", reads=[2])
    tasks.assemble_pool(pool.pk)
    assert PoolDocument.objects.get(pool=pool).schema == 2
    services.revoke_credentials(old_node)
    tasks.assemble_pool(pool.pk)
    assert PoolDocument.objects.get(pool=pool).schema == 3


def test_nothing_is_re_assembled_while_the_portal_writes_one_schema(
    pool, monkeypatch, django_capture_on_commit_callbacks
):
    sent = []
    monkeypatch.setattr(services.current_app, "send_task", lambda name, args: sent.append((name, args)))
    with django_capture_on_commit_callbacks(execute=True):
        node, cred = enrol(pool, reads=[1])
        agent(cred).post("/api/v1/agents/node-1/observed-state", REPORT | {"reads": [1, 2]}, format="json")
    assert sent == [] and PoolDocument.objects.get(pool=pool).schema == 2


def test_the_node_api_and_pages_say_which_node_cannot_read_its_pools_schema(pool, world):
    node, _ = enrol(pool, "node-old", reads=[1])
    enrol(pool, "node-new", reads=[1, 2])
    api = APIClient()
    api.force_authenticate(world.admin)
    detail = api.get(f"/api/v1/nodes/{node.pk}/").json()
    assert detail["wire_reads"] == [1] and detail["pool_schema"] == 2
    assert detail["wire_note"] == "cannot read its pool's schema 2 (reads 1): upgrade the agent"
    listed = {n["name"]: n["wire_note"] for n in api.get("/api/v1/nodes/").json()["results"]}
    assert listed == {"node-old": detail["wire_note"], "node-new": ""}
    page = Client()
    page.force_login(world.admin)
    html = page.get(reverse("agents:node-detail", args=[node.pk])).content.decode()
    assert "reads 1; pool document: 2" in html and "upgrade the agent" in html
    assert html.count("upgrade the agent") == 1
    assert page.get(reverse("agents:node-list")).content.decode().count("upgrade the agent") == 1


def test_the_contract_adds_no_query_to_a_nodes_desired_state_request(pool):
    _, said = enrol(pool, "node-said", reads=[1, 2])
    _, silent = enrol(pool, "node-silent")
    _, old = enrol(pool, "node-old", reads=[1])
    for name, cred in (("node-said", said), ("node-silent", silent)):
        get_desired(name, cred)  # the heartbeat's write and the pool's fragment, once
    counts = []
    for name, cred, headers in (("node-said", said, {}), ("node-silent", silent, {}),
                                ("node-said", said, {"HTTP_ENCLAVE_WIRE": "1,2"}), ("node-old", old, {})):  # fmt: skip
        get_desired(name, cred, **headers)
        with CaptureQueriesContext(connection) as queries:
            response = get_desired(name, cred, **headers)
        assert response.status_code in (200, 409)
        counts.append(len(queries))
    assert counts == [2, 2, 2, 2]  # the credential with its node (what it reads), the document's row
