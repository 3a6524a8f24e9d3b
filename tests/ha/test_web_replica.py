"""A web replica SIGKILLed while node long-polls sit on it: HAProxy retries them on the other replica.

Two real gunicorn replicas (portal/gunicorn_conf.py) on the test database and Redis behind HAProxy with the
ha profile's retry rules; parked polls of both are woken by one change after the kill.
"""

import http.client
import os
import signal
import subprocess
import sys
import threading
import time

import pytest
from django.conf import settings
from django.db import connection

from agents import longpoll, refresh, services
from agents.models import Node
from tests.conftest import ROOT
from tests.ha.load import enrol, interfaces
from tests.ha.proxy import haproxy, servers, servers_up
from tests.ha.sentinel import free_port, wait_for

NODES = 200  # the figure: 100 parked on each replica, then all 200 on the survivor


def _replica(port) -> subprocess.Popen:
    # Threads as docs/deployment.md sizes them (nodes / replicas + 100), and room for all NODES on the survivor.
    env = dict(os.environ, ENCLAVE_BIND=f"127.0.0.1:{port}", ENCLAVE_WEB_WORKERS="1",
               ENCLAVE_WEB_THREADS=str(NODES + 100),
               ENCLAVE_DB_NAME=settings.DATABASES["default"]["NAME"], ENCLAVE_AGENT_LONGPOLL_MAX="1000")  # fmt: skip
    cmd = [sys.executable, "-m", "gunicorn", "-c", "portal/gunicorn_conf.py", "portal.wsgi:application"]
    return subprocess.Popen(cmd, cwd=ROOT, env=env, start_new_session=True, stderr=subprocess.DEVNULL)


@pytest.fixture
def site(tmp_path):
    """HAProxy (with or without retries) over two web replicas; yields start(retry) -> (proxy port, replicas)."""
    procs = []  # each in a process group of its own (gunicorn's workers die with their arbiter)

    def start(retry: bool):
        """Start them; returns (proxy port, replicas, wait until both are up, requests the first one holds)."""
        ports, proxy = [free_port(), free_port()], free_port()
        replicas = [_replica(p) for p in ports]
        procs.extend(replicas)
        procs.append(haproxy(tmp_path, proxy, ports, retry))
        # Both answering, and both UP in HAProxy: polls through it then reach both replicas.
        up = lambda: all(_get(p, "/healthz")[0] in (200, 503) for p in ports) and servers_up(tmp_path)  # noqa: E731
        held = lambda: int(servers(tmp_path)["w0"]["scur"])  # noqa: E731  (requests open on the first replica)
        return proxy, replicas, lambda: wait_for(up, 90), held

    yield start
    for proc in procs:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=20)


def _get(port, path, headers=None, timeout=5.0):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path, headers=headers or {})
        response = conn.getresponse()
        return response.status, response.getheader("ETag"), response.read()
    finally:
        conn.close()


def _change_every_node(pool, nodes) -> None:
    """One change to every node's document, stored and woken at once (as a pool-wide edit does)."""
    for i, (node, _) in enumerate(nodes):  # rows, not update_node: its per-node audit is not what is tested
        Node.objects.filter(pk=node.pk).update(interfaces=interfaces(1, i))
    refresh.store_node_parts(pool)


def _park_and_kill(site, retry, count=NODES):
    """`count` polls parked through the proxy, one replica killed, then one change: each poll's outcomes."""
    proxy, replicas, started, held = site(retry)  # the replicas boot while the nodes are enrolled
    pool = services.create_pool("rack-1")
    services.add_subnet(pool, "10.10.0.0/16", 4790)
    nodes = enrol(pool, count)
    assert started()
    longpoll.redis_client().delete(longpoll.ACTIVE)  # a killed replica's polls stay counted until they expire
    outcomes, starts = {node.name: [] for node, _ in nodes}, []

    def poll(node, cred):
        auth, etag = {"Authorization": f"Bearer {cred}"}, None
        for _ in range(20):  # a replica still starting, or all 200 first reads at once: the agent tries again
            try:  # a first read compiles nothing, but 200 at once on 2 cores queue behind each other
                status, etag, _ = _get(proxy, f"/api/v1/agents/{node.name}/desired-state", auth, timeout=60)
            except OSError:
                status = "error"
            if status == 200:
                break
            starts.append(status)
            time.sleep(0.5)
        while not outcomes[node.name] or outcomes[node.name][-1] != 200:  # the agent's loop: retry until news
            try:
                path = f"/api/v1/agents/{node.name}/desired-state?wait=30"
                status = _get(proxy, path, auth | {"If-None-Match": etag}, timeout=60)[0]
            except OSError:
                status = "error"
            outcomes[node.name].append(status)

    threads = [threading.Thread(target=poll, args=pair, daemon=True) for pair in nodes]
    for thread in threads:
        thread.start()
    assert wait_for(lambda: longpoll.active() >= count, 60)
    assert held() > 0  # the replica about to be killed holds parked polls (else the test would show nothing)
    os.killpg(replicas[0].pid, signal.SIGKILL)
    replicas[0].wait(timeout=20)
    # A cut poll retried after the change below gets it at once (its ETag is old): no need to wait for it here.
    _change_every_node(pool, nodes)
    deadline = time.monotonic() + 120
    for thread in threads:
        thread.join(timeout=max(0.1, deadline - time.monotonic()))
    connection.close()
    assert not threads[-1].is_alive(), (starts, outcomes)
    return outcomes


@pytest.mark.django_db(transaction=True)
def test_long_polls_on_a_killed_web_replica_are_retried_on_the_other_and_all_get_the_change(site):
    outcomes = _park_and_kill(site, retry=True)
    assert all(o and o[-1] == 200 for o in outcomes.values()), outcomes
    assert not [o for o in outcomes.values() if "error" in o or 502 in o or 503 in o], outcomes  # none saw the kill


@pytest.mark.django_db(transaction=True)
def test_without_the_proxys_retries_the_polls_on_the_killed_replica_see_errors(site):
    # Negative control: the clients above saw nothing only because HAProxy retried for them.
    outcomes = _park_and_kill(site, retry=False, count=40)  # a fifth suffices to see the cut polls fail
    assert [o for o in outcomes.values() if "error" in o or 502 in o or 503 in o]
    assert all(o and o[-1] == 200 for o in outcomes.values())  # the agent's own retry still gets there
