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
from tests.ha.sentinel import free_port, wait_for

NODES = 40
RETRY = "    retries 3\n    option redispatch\n    retry-on conn-failure empty-response response-timeout 502 503\n"


def _haproxy(tmp, port, replicas, retry: bool) -> subprocess.Popen:
    servers = "".join(f"    server w{i} 127.0.0.1:{p} check inter 1s\n" for i, p in enumerate(replicas))
    config = tmp / "haproxy.cfg"
    rules = RETRY if retry else "    retries 0\n"
    timeouts = "    timeout connect 2s\n    timeout client 60s\n    timeout server 60s\n"
    frontend = f"frontend web\n    bind 127.0.0.1:{port}\n    default_backend web\n"
    backend = f"backend web\n    balance roundrobin\n{rules}{servers}"
    config.write_text(f"defaults\n    mode http\n{timeouts}{frontend}{backend}")
    cmd = ["haproxy", "-W", "-db", "-f", str(config)]
    return subprocess.Popen(cmd, stderr=subprocess.DEVNULL, start_new_session=True)


def _replica(port) -> subprocess.Popen:
    env = dict(os.environ, ENCLAVE_BIND=f"127.0.0.1:{port}", ENCLAVE_WEB_WORKERS="1", ENCLAVE_WEB_THREADS="100",
               ENCLAVE_DB_NAME=settings.DATABASES["default"]["NAME"], ENCLAVE_AGENT_LONGPOLL_MAX="1000")  # fmt: skip
    cmd = [sys.executable, "-m", "gunicorn", "-c", "portal/gunicorn_conf.py", "portal.wsgi:application"]
    return subprocess.Popen(cmd, cwd=ROOT, env=env, start_new_session=True, stderr=subprocess.DEVNULL)


@pytest.fixture
def site(tmp_path):
    """HAProxy (with or without retries) over two web replicas; yields start(retry) -> (proxy port, replicas)."""
    procs = []  # each in a process group of its own (gunicorn's workers die with their arbiter)

    def start(retry: bool):
        ports, proxy = [free_port(), free_port()], free_port()
        replicas = [_replica(p) for p in ports]
        procs.extend(replicas)
        procs.append(_haproxy(tmp_path, proxy, ports, retry))
        up = lambda: all(_get(p, "/healthz")[0] in (200, 503) for p in ports)  # noqa: E731
        assert wait_for(up, 90)
        return proxy, replicas

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


def _enrol(pool, count) -> list[tuple[Node, str]]:
    enrolled = []
    for i in range(count):  # the service, not the throttled join route (20 a minute per address)
        _, raw = services.create_join_token(pool)
        interfaces = [{"name": "em1", "address": f"10.10.0.{i + 10}/24"}]
        enrolled.append(services.join(raw, f"node-{i}", {"vrf": True}, interfaces))
    return enrolled


def _park_and_kill(site, retry):
    """NODES polls parked through the proxy, one replica killed, then one change: each poll's outcomes."""
    pool = services.create_pool("rack-1")
    services.add_subnet(pool, "10.10.0.0/24", 4790)
    nodes = _enrol(pool, NODES)
    proxy, replicas = site(retry)
    longpoll.redis_client().delete(longpoll.ACTIVE)  # a killed replica's polls stay counted until they expire
    outcomes, starts = {node.name: [] for node, _ in nodes}, []

    def poll(node, cred):
        auth = {"Authorization": f"Bearer {cred}"}
        first = [_get(proxy, f"/api/v1/agents/{node.name}/desired-state", auth) for _ in range(1)]
        while first[-1][0] != 200 and len(first) < 20:  # a replica still starting: the agent tries again
            time.sleep(0.5)
            first.append(_get(proxy, f"/api/v1/agents/{node.name}/desired-state", auth))
        etag = first[-1][1]
        starts.extend(status for status, _, _ in first[:-1])
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
    assert wait_for(lambda: longpoll.active() >= NODES, 60)
    os.killpg(replicas[0].pid, signal.SIGKILL)
    replicas[0].wait(timeout=20)
    # A cut poll retried after the change below gets it at once (its ETag is old): no need to wait for it here.
    for i, (node, _) in enumerate(nodes):
        services.update_node(node, interfaces=[{"name": "em1", "address": f"10.10.0.{i + 100}/24"}])
    refresh.store_node_parts(pool)
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
    outcomes = _park_and_kill(site, retry=False)
    assert [o for o in outcomes.values() if "error" in o or 502 in o or 503 in o]
    assert all(o and o[-1] == 200 for o in outcomes.values())  # the agent's own retry still gets there
