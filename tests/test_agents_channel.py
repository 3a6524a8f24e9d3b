"""The node channel: one long-poll per node, a site-wide cap, expiring and rotating credentials, revocation."""

import datetime
import gc
import os
import threading
import time

import pytest
from django.db import connection
from django.test import override_settings
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents import longpoll, refresh, services
from agents.models import Node, NodeCredential
from audit.models import AuditEvent
from tests.test_agents_api import IFACES, agent, enrol


@pytest.fixture
def pool(db):
    pool = services.create_pool("rack-1")
    services.add_subnet(pool, "10.10.0.0/24", 4790)
    return pool


def _poll(cred, name, etag, result, key):
    try:
        result[key] = agent(cred).get(f"/api/v1/agents/{name}/desired-state?wait=30", HTTP_IF_NONE_MATCH=etag)
    finally:
        connection.close()  # this thread's own database connection


@pytest.fixture
def polls(wait_for):
    """Start long-polls in threads; whatever a failing test leaves waiting is woken and joined."""
    started = []

    def start(cred, name, result, key, count):
        etag = agent(cred).get(f"/api/v1/agents/{name}/desired-state")["ETag"]
        thread = threading.Thread(target=_poll, args=(cred, name, etag, result, key))
        thread.start()
        started.append(thread)
        wait_for(lambda: longpoll.active() >= count, 30)  # the poll holds its slot now
        return thread

    yield start
    for pk in Node.objects.values_list("pk", flat=True):
        longpoll.revoked(pk)  # ends a parked poll (401); a plain wake without a change would not
    for thread in started:
        thread.join(timeout=60)


@pytest.mark.django_db(transaction=True)
def test_a_second_long_poll_of_a_node_ends_the_first(pool, polls):
    node, cred = enrol(pool)
    result = {}
    first = polls(cred, "node-1", result, "first", 1)
    second = polls(cred, "node-1", result, "second", 1)
    first.join(timeout=30)
    assert result["first"].status_code == 409 and "newer long-poll" in result["first"].json()["detail"]
    assert second.is_alive()  # the newer poll keeps waiting
    services.update_node(node, interfaces=IFACES + [{"name": "em2", "address": "10.10.0.6/24"}])
    refresh.store_node_parts(pool)
    second.join(timeout=30)
    assert result["second"].status_code == 200
    assert longpoll.active() == 0


@pytest.mark.django_db(transaction=True)
def test_a_wake_that_changed_nothing_keeps_the_poll_parked_and_a_change_then_answers_it(pool, polls):
    node, cred = enrol(pool)
    result = {}
    poll = polls(cred, "node-1", result, "poll", 1)
    longpoll.wake([node.pk])  # what the sweep sends a node that holds its document but has not applied it
    poll.join(timeout=2)
    assert poll.is_alive() and longpoll.active() == 1  # no 304 and re-poll for every sweep
    services.update_node(node, interfaces=IFACES + [{"name": "em2", "address": "10.10.0.6/24"}])
    refresh.store_node_parts(pool)
    poll.join(timeout=30)
    assert result["poll"].status_code == 200 and longpoll.active() == 0


@pytest.mark.django_db(transaction=True)
def test_unchanged_polls_are_held_for_a_random_75_to_100_percent_of_their_wait(pool):
    _, cred = enrol(pool)
    etag = agent(cred).get("/api/v1/agents/node-1/desired-state")["ETag"]
    held = []
    for _ in range(4):
        start = time.monotonic()
        response = agent(cred).get("/api/v1/agents/node-1/desired-state?wait=2", HTTP_IF_NONE_MATCH=etag)
        held.append(time.monotonic() - start)
        assert response.status_code == 304
    assert all(1.4 < seconds < 2.5 for seconds in held), held
    assert max(held) - min(held) > 0.01  # not one fixed hold: nodes that parked together drift apart


@pytest.mark.django_db(transaction=True)
def test_a_full_document_is_sent_without_holding_a_database_connection(pool):
    _, cred = enrol(pool)
    connection.ensure_connection()
    response = agent(cred).get("/api/v1/agents/node-1/desired-state")
    assert response.status_code == 200 and response["ETag"]
    assert connection.connection is None  # back in the pool before 3 MB go out to a slow reader


@pytest.mark.django_db(transaction=True)
def test_long_polls_beyond_the_site_wide_cap_get_429_with_retry_after(pool, polls, settings):
    settings.AGENT_LONGPOLL_MAX, settings.AGENT_LONGPOLL_RETRY_AFTER = 1, 7
    node, cred1 = enrol(pool, "node-1")
    _, cred2 = enrol(pool, "node-2")
    result = {}
    holder = polls(cred1, "node-1", result, "holder", 1)
    etag = agent(cred2).get("/api/v1/agents/node-2/desired-state")["ETag"]
    refused = agent(cred2).get("/api/v1/agents/node-2/desired-state?wait=30", HTTP_IF_NONE_MATCH=etag)
    assert refused.status_code == 429 and refused["Retry-After"] == "7"
    assert agent(cred2).get("/api/v1/agents/node-2/desired-state").status_code == 200  # a plain GET still works
    longpoll.revoked(node.pk)  # ends the holder's poll
    holder.join(timeout=30)
    assert longpoll.active() == 0
    settings.AGENT_LONGPOLL_MAX = 2
    assert agent(cred2).get("/api/v1/agents/node-2/desired-state?wait=1", HTTP_IF_NONE_MATCH=etag).status_code == 304


@pytest.mark.django_db(transaction=True)
def test_revoking_a_node_ends_its_long_poll_and_every_later_request(pool, polls, api, world):
    node, cred = enrol(pool)
    result = {}
    poll = polls(cred, "node-1", result, "poll", 1)
    response = api(world.admin).post(f"/api/v1/nodes/{node.pk}/revoke-credential/")
    assert response.status_code == 200 and response.json()["credentials"] == []
    poll.join(timeout=30)
    assert result["poll"].status_code == 401
    assert agent(cred).get("/api/v1/agents/node-1/desired-state").status_code == 401
    assert agent(cred).post("/api/v1/agents/node-1/credential").status_code == 401
    event = AuditEvent.objects.get(action="node.credential.revoke", object_id=str(node.pk))
    assert event.actor_label == "site-admin" and event.after["credentials"] == []


def test_a_node_renews_its_credential_and_the_old_one_lasts_only_the_grace_period(pool, settings):
    settings.AGENT_CREDENTIAL_GRACE_SECONDS = 600
    node, old = enrol(pool)
    answer = agent(old).post("/api/v1/agents/node-1/credential")
    assert answer.status_code == 201, answer.content
    new = answer.json()["credential"]
    assert new != old and answer.json()["expires_in"] > 29 * 86400
    assert agent(new).get("/api/v1/agents/node-1/desired-state").status_code == 200
    assert agent(old).get("/api/v1/agents/node-1/desired-state").status_code == 200  # grace
    grace_end = NodeCredential.objects.get(hint=old[:12]).expires_at
    assert grace_end <= timezone.now() + datetime.timedelta(seconds=600)
    NodeCredential.objects.filter(hint=old[:12]).update(expires_at=timezone.now())
    expired = agent(old).get("/api/v1/agents/node-1/desired-state")
    assert expired.status_code == 401 and "expired" in expired.json()["detail"]
    assert AuditEvent.objects.filter(action="node.credential.issue").count() == 2


def test_a_renewal_whose_answer_was_lost_is_retried_with_the_old_credential(pool):
    node, old = enrol(pool)
    lost = agent(old).post("/api/v1/agents/node-1/credential").json()["credential"]
    kept = agent(old).post("/api/v1/agents/node-1/credential").json()["credential"]
    assert agent(lost).get("/api/v1/agents/node-1/desired-state").status_code == 401  # never persisted: dropped
    assert agent(kept).get("/api/v1/agents/node-1/desired-state").status_code == 200
    assert node.credentials.count() == 2


def test_an_expired_credential_cannot_renew_itself(pool):
    node, cred = enrol(pool)
    node.credentials.update(expires_at=timezone.now() - datetime.timedelta(seconds=1))
    assert agent(cred).post("/api/v1/agents/node-1/credential").status_code == 401


def test_a_node_cannot_renew_or_read_through_another_nodes_url(pool):
    _, cred1 = enrol(pool, "node-1")
    enrol(pool, "node-2")
    assert agent(cred1).post("/api/v1/agents/node-2/credential").status_code == 404
    assert Node.objects.get(name="node-2").credentials.count() == 1


@pytest.mark.parametrize("role", ["owner_a", "member_a", "owner_b"])
def test_only_site_admins_revoke_node_credentials(pool, api, world, client, role):
    node, cred = enrol(pool)
    assert api(getattr(world, role)).post(f"/api/v1/nodes/{node.pk}/revoke-credential/").status_code in (403, 404)
    assert agent(cred).post(f"/api/v1/nodes/{node.pk}/revoke-credential/").status_code == 401  # node creds: no
    client.force_login(getattr(world, role))
    assert client.post(f"/nodes/{node.pk}/revoke-credential/").status_code in (302, 404)
    assert node.credentials.count() == 1 and not AuditEvent.objects.filter(action="node.credential.revoke").exists()


def test_the_node_page_shows_the_credential_and_revokes_it(pool, world, client):
    node, cred = enrol(pool)
    client.force_login(world.admin)
    page = client.get(f"/nodes/{node.pk}/").content.decode()
    assert cred[:12] in page and "Revoke credential" in page
    done = client.post(f"/nodes/{node.pk}/revoke-credential/", follow=True).content.decode()
    assert "revoked" in done and "None: the node cannot reach the portal" in done
    assert agent(cred).get("/api/v1/agents/node-1/desired-state").status_code == 401
    assert client.get(f"/nodes/{node.pk}/revoke-credential/").status_code == 405


def test_the_node_list_query_count_does_not_grow_with_credentials(pool, api, world, django_assert_max_num_queries):
    for i in range(6):
        node, cred = enrol(pool, f"node-{i}")
        agent(cred).post(f"/api/v1/agents/node-{i}/credential")
    with django_assert_max_num_queries(8):
        assert len(api(world.admin).get("/api/v1/nodes/").json()["results"]) == 6


# -- observed-state reports: anything malformed is a 400, never a 500 --------------------------

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
tenant_entries = st.fixed_dictionaries(
    {
        "status": st.sampled_from(["ready", "failed", "not_ready", "bogus", 3]),
        "errors": st.lists(st.text(max_size=10), max_size=3) | json_values,
    }
)
generations = st.integers(min_value=-5, max_value=2**64) | json_values
near_reports = st.fixed_dictionaries({"generation": generations}, optional={
    "tenants": st.dictionaries(st.text(max_size=6) | st.sampled_from(["1", "22"]), tenant_entries | json_values,
                               max_size=3) | json_values,
    "node_errors": st.lists(st.text(max_size=20), max_size=3) | json_values,
    "capabilities": st.fixed_dictionaries({}, optional={"vrf": json_values, "kernel": json_values}) | json_values,
    "ops": json_values, "seconds": st.floats(allow_nan=False, allow_infinity=False) | json_values,
    "extra": json_values,
})  # fmt: skip


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=near_reports | json_values)
def test_observed_state_reports_are_stored_or_refused_with_a_400_never_a_500(pool, body):
    if not hasattr(pool, "_cred"):
        _, pool._cred = enrol(pool)
    response = agent(pool._cred).post("/api/v1/agents/node-1/observed-state", body, format="json")
    assert response.status_code in (204, 400), (response.status_code, body)
    if response.status_code == 204:
        node = Node.objects.get(name="node-1")
        assert node.applied_generation == body["generation"] and node.last_report["generation"] == body["generation"]


@pytest.mark.parametrize("body", [
    {"generation": 2**63}, {"generation": 1, "tenants": {"7": {"status": "ready", "errors": "no list"}}},
    {"generation": 1, "tenants": {"7": {"status": "ready", "errors": [{"a": 1}]}}},
    {"generation": 1, "tenants": {"7": {"status": "ready", "errors": ["\u0000"]}}},
    {"generation": 1, "tenants": {"x\u0000": {"status": "ready"}}}, {"generation": 1, "node_errors": "boom"},
    {"generation": 1, "capabilities": {"vrf": True, "kernel": "\u0000"}}, {"generation": 1, "seconds": 1e308},
    {"generation": 1, "tenants": []}, [], "report",
])  # fmt: skip
def test_malformed_reports_are_400s(pool, body):
    _, cred = enrol(pool)
    response = agent(cred).post("/api/v1/agents/node-1/observed-state", body, format="json")
    assert response.status_code == 400, response.content


# -- one bad enrolment never stalls its pool -----------------------------------------------------


def test_a_node_with_broken_stored_interfaces_does_not_stop_its_pools_refresh(pool):
    bad, _ = enrol(pool, "node-1")  # computed first: the pool's nodes go in id order
    good, _ = enrol(pool, "node-2")
    Node.objects.filter(pk=bad.pk).update(interfaces=[{"name": "em1"}, "garbage"])  # e.g. written before validation
    Node.objects.filter(pk=good.pk).update(interfaces=IFACES + [{"name": "em2", "address": "10.10.0.6/24"}])
    before = Node.objects.get(pk=good.pk).desired_generation
    refresh.store_node_parts(pool)
    assert Node.objects.get(pk=good.pk).desired_generation == before + 1


@pytest.mark.django_db(transaction=True)
def test_joins_racing_for_one_name_get_one_201_and_409s_never_a_500(pool):
    raws = [services.create_join_token(pool)[1] for _ in range(4)]
    barrier, codes = threading.Barrier(4), []

    def join(raw):
        barrier.wait()
        try:
            body = {"token": raw, "hostname": "node-9"}
            codes.append(agent().post("/api/v1/agents/join", body, format="json").status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=join, args=(raw,)) for raw in raws]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(codes) == [201, 409, 409, 409]
    assert Node.objects.filter(name="node-9").count() == 1


def test_users_cannot_use_node_endpoints_and_nodes_cannot_use_user_endpoints(pool, api, world):
    node, cred = enrol(pool)
    for user in (world.admin, world.owner_a):
        assert api(user).post("/api/v1/agents/node-1/credential").status_code == 401
        assert api(user).get("/api/v1/agents/node-1/desired-state").status_code == 401
    assert agent(cred).get("/api/v1/nodes/").status_code == 401
    assert agent(cred).patch(f"/api/v1/nodes/{node.pk}/", {"address": "10.10.0.9"}, format="json").status_code == 401
    assert node.credentials.count() == 1 and Node.objects.get(pk=node.pk).address == "10.10.0.5"


def test_one_web_process_holds_more_parked_polls_than_redis_pys_default_pool(settings, redis_client):
    settings.AGENT_LONGPOLL_MAX = 250
    waiters = []
    try:
        for node_id in range(900_000, 900_150):  # 150 parked polls, each with its pub/sub connection
            waiters.append(longpoll.Waiter(node_id))
        assert longpoll.active() == 150
    finally:
        for waiter in waiters:
            waiter.close()
    assert longpoll.active() == 0


# -- request rates: per node, not per address -----------------------------------------------------

RATES = {"user": "1000/minute", "anon": "3/minute", "join": "100/minute", "bearer_failure": "100/minute",
         "node": "5/minute"}  # fmt: skip


def _early_in_a_minute():
    """The node rate counts in fixed minutes: start a test's burst well inside one."""
    if time.time() % 60 > 50:
        time.sleep(61 - time.time() % 60)


def test_nodes_behind_one_address_are_not_throttled_together_as_one_anonymous_client(pool):
    with override_settings(API_RATES=RATES):
        creds = [enrol(pool, f"node-{k}")[1] for k in range(1, 5)]
        _early_in_a_minute()
        statuses = [agent(cred).get(f"/api/v1/agents/node-{k}/desired-state").status_code
                    for k, cred in enumerate(creds, 1) for _ in range(3)]  # fmt: skip
    assert 429 not in statuses  # 12 requests from 127.0.0.1, beyond its anonymous 3 a minute


def test_a_node_beyond_its_own_rate_gets_429_with_retry_after_and_other_nodes_do_not(pool):
    with override_settings(API_RATES=RATES):
        _, first = enrol(pool, "node-1")
        _, second = enrol(pool, "node-2")
        _early_in_a_minute()
        answers = [agent(first).post("/api/v1/agents/node-1/observed-state", {"generation": 0}, format="json")
                   for _ in range(6)]  # fmt: skip
        other = agent(second).get("/api/v1/agents/node-2/desired-state")
    assert [a.status_code for a in answers] == [204] * 5 + [429]
    assert 0 < int(answers[-1]["Retry-After"]) <= 60
    assert other.status_code != 429


# -- one listener per process: a parked poll holds no Redis connection -----------------------------


def _connections(redis_client) -> int:
    return len(redis_client.client_list())


def test_a_parked_poll_holds_no_redis_connection_of_its_own(settings, redis_client):
    settings.AGENT_LONGPOLL_MAX = 250
    first = longpoll.Waiter(900_200)  # the process's listener and pool are up
    before = _connections(redis_client)
    waiters = [longpoll.Waiter(node_id) for node_id in range(900_201, 900_301)]
    try:
        assert longpoll.active() == 101
        assert _connections(redis_client) - before <= 2  # was one per parked poll
    finally:
        for waiter in [first, *waiters]:
            waiter.close()


def test_a_wake_reaches_only_the_polls_of_its_node():
    mine, other = longpoll.Waiter(900_400), longpoll.Waiter(900_401)
    try:
        longpoll.wake([900_400])
        assert mine.wait(5) is True
        assert other.wait(0.3) is False
    finally:
        mine.close(), other.close()


def test_a_poll_is_not_woken_by_its_own_announcement_that_it_replaced_older_ones():
    mine = longpoll.Waiter(900_450)  # it publishes "superseded:<its token>" on its node's channel
    later = longpoll.Waiter(900_451)
    try:
        longpoll.wake([900_451])
        assert later.wait(5) is True  # the listener has handled every message published before this wake
        assert longpoll.SUPERSEDED + mine.token not in mine.slot.messages
    finally:
        mine.close(), later.close()


def _kill_listener(redis_client) -> None:
    name = f"{longpoll.LISTENER_NAME}-{os.getpid()}"
    for client in redis_client.client_list():
        if client["name"] == name:
            redis_client.client_kill_filter(_id=client["id"])


def test_a_lost_subscription_wakes_every_parked_poll_to_read_its_document_again(redis_client):
    waiter = longpoll.Waiter(900_500)  # a wake published while the listener is down is lost: none may hang on it
    try:
        _kill_listener(redis_client)
        assert waiter.wait(10) is True
        longpoll.wake([900_500])  # and the listener hears wake-ups again
        assert waiter.wait(5) is True
    finally:
        waiter.close()


def test_no_error_ends_the_listener_and_wakes_are_heard_again_after_one(settings, monkeypatch):
    waiter = longpoll.Waiter(900_550)
    listener = longpoll._listener_for(settings.REDIS_URL)
    try:
        # What killed the thread under load: redis-py's buffer closed under it (ValueError, not a Redis error).
        monkeypatch.setattr(listener._pubsub, "get_message", lambda **kw: (_ for _ in ()).throw(ValueError("closed")))
        longpoll.wake([900_552])  # ends the listener's current read (up to HEALTH_CHECK s) so it reads again
        assert waiter.wait(10) is True  # resubscribed: every parked poll reads its document again
        assert listener.live.wait(5)
        longpoll.Waiter(900_551, before_waiting=pytest.fail).close()  # a live listener: nothing handed back
        longpoll.wake([900_550])
        assert waiter.wait(5) is True
    finally:
        waiter.close()


def test_a_stopped_listener_ends_its_thread_at_once_and_another_takes_its_place(settings):
    db = longpoll.redis_client().connection_pool.connection_kwargs.get("db", 0)
    listener = longpoll._Listener(settings.REDIS_URL, longpoll.CHANNEL.format(db=db, node="*"))
    assert listener.live.wait(30)
    listener.stop()  # its read waits up to HEALTH_CHECK (15 s) for a message: the stop sends one
    listener.thread.join(60)  # a liveness bound only: the woken read returns at once
    assert not listener.thread.is_alive()
    waiter = longpoll.Waiter(900_570)  # the process's own listener is another one, and still hears wakes
    try:
        longpoll.wake([900_570])
        assert waiter.wait(5) is True
    finally:
        waiter.close()


def test_the_listeners_client_lives_as_long_as_the_listener(settings):
    waiter = longpoll.Waiter(900_560)
    try:
        gc.collect()  # a collected client closed its pool and the subscription's socket with it
        longpoll.wake([900_560])
        assert waiter.wait(5) is True
    finally:
        waiter.close()


def test_a_poll_that_cannot_hear_wake_ups_gets_503_with_retry_after(settings, monkeypatch):
    monkeypatch.setattr(longpoll, "LISTEN_TIMEOUT", 0.5)
    settings.REDIS_URL = "redis://127.0.0.1:9/0"  # nothing listens on the discard port
    handed_back = []
    with pytest.raises(longpoll.Unavailable) as error:
        longpoll.Waiter(900_600, before_waiting=lambda: handed_back.append("db"))
    assert handed_back == ["db"]  # its database connection is not held while it waits for the listener
    assert error.value.status_code == 503 and error.value.wait == 5
    assert "Wake-ups cannot be heard" in str(error.value.detail)


def test_node_requests_get_503_with_retry_after_while_redis_is_down(pool, settings):
    node, cred = enrol(pool)
    etag = agent(cred).get("/api/v1/agents/node-1/desired-state")["ETag"]
    settings.REDIS_URL = "redis://127.0.0.1:9/0"
    for path, headers in (("", {}), ("?wait=5", {"HTTP_IF_NONE_MATCH": etag})):
        response = agent(cred).get(f"/api/v1/agents/node-1/desired-state{path}", **headers)
        assert response.status_code == 503 and response["Retry-After"] == "5", response.content
        assert "retry" in response.json()["detail"]
