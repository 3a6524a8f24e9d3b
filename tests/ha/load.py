"""The fault tests' steady load through a running portal, and the checks every fault test makes after it.

`seed()` prepares a site in the test database: endorsed cluster requests, a site admin's write token,
a node pool with enrolled nodes. `Load` drives the portal over HTTP in a thread: approvals (POST
approve, as the site admin), rule changes (a new rule in the site-wide policy: every node's document
changes) and node polls on the agent channel; a request cut by the fault is retried like a client
would, and what the portal acknowledged is recorded. `check()` then says what is wrong: an
acknowledged approval or rule missing or recorded twice (its audit events), an approval the worker
never reconciled, a node not served its latest generation, the audit chain broken. A worker SIGKILLed
mid-reconcile (duplicate VM, lost VF) is tests/vsphere/test_reconcile_e2e.py's, on the vSphere simulator.
"""

import contextlib
import datetime
import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field

import requests
from celery import Celery
from django.conf import settings
from django.db import connection, connections
from django.utils import timezone

from agents import credentials, refresh
from agents import services as agent_services
from agents.models import Node, NodeCredential
from audit import chain
from audit.context import ActorKind
from audit.models import AuditEvent
from core import redisconn
from core.env import multi_host
from netpolicy.models import FirewallPolicy, FirewallRule
from tenants import services
from tenants.models import VirtualCluster
from tests.conftest import ROOT, TEST_LEASE_SECONDS, service_data
from tests.ha.sentinel import free_port, wait_for
from users.models import TokenScope
from users.services import create_token

PAUSE = 0.1  # seconds between the load's rounds
APPROVED_OR_LATER = {"submitted", "endorsed"}  # states an approved request has left


@dataclass
class Site:
    """What the load works on: ids and secrets, no model instances (it runs in another thread)."""

    token: str
    clusters: list[int]
    policy: int
    nodes: list[tuple[str, str]]  # (name, credential)


def enrol(pool, count: int, prefix: str = "node") -> list[tuple[Node, str]]:
    """`count` enrolled nodes with credentials, in bulk (the join service, audited per node, is test_agent's)."""
    now, lifetime = timezone.now(), datetime.timedelta(days=1)
    nodes = Node.objects.bulk_create([Node(name=f"{prefix}-{i}", pool=pool, enrolled=now, capabilities={"vrf": True},
                                           address=f"10.10.0.{i + 10}", interfaces=interfaces(0, i))
                                      for i in range(count)])  # fmt: skip
    secrets = [credentials.new_secret(credentials.NODE_PREFIX) for _ in nodes]
    NodeCredential.objects.bulk_create([NodeCredential(node=node, credential_hash=hashed, hint=raw[:12],
                                                       expires_at=now + lifetime)
                                        for node, (raw, hashed) in zip(nodes, secrets, strict=True)])  # fmt: skip
    refresh.store_node_parts(pool)
    return [(node, raw) for node, (raw, _) in zip(nodes, secrets, strict=True)]


def interfaces(subnet: int, i: int) -> list[dict]:
    return [{"name": "em1", "address": f"10.10.{subnet}.{i + 10}/16"}]


def seed(world, clusters: int = 4, nodes: int = 3) -> Site:
    """Endorsed requests of tenant A (4: its segment quota), the site admin's write token, a pool of enrolled nodes."""
    pks = []
    for i in range(clusters):
        cluster = services.create_cluster(world.tenant_a, world.member_a, service_data(name=f"ha-{i}"), submit=True)
        pks.append(services.endorse_cluster(cluster, world.owner_a).pk)
    _, token = create_token(world.admin, "ha-load", scope=TokenScope.WRITE)
    pool = agent_services.create_pool("ha-rack")
    agent_services.add_subnet(pool, "10.10.0.0/16", 4790)
    enrolled = [(node.name, raw) for node, raw in enrol(pool, nodes, prefix="ha")]
    policy = FirewallPolicy.objects.get(tenant__isnull=True, name="site_base").pk
    return Site(token=token, clusters=pks, policy=policy, nodes=enrolled)


@dataclass
class Record:
    """What the portal acknowledged, and each failed request (seconds since the load started, what)."""

    approved: list[int] = field(default_factory=list)
    approved_at: list[float] = field(default_factory=list)  # seconds since the load started, per approval
    rules: list[int] = field(default_factory=list)
    seen: dict[str, int] = field(default_factory=dict)  # node -> last generation it was served
    failures: list[tuple[float, str]] = field(default_factory=list)
    redone: int = 0  # a retry that found its write already done (the answer was lost)


class Load(threading.Thread):
    """Approvals, rule changes and node polls against `base` until stop(); its Record in `record`."""

    def __init__(self, base: str, site: Site):
        super().__init__(daemon=True)
        self.base, self.site, self.record = base.rstrip("/"), site, Record()
        self.stopping, self.started_at, self.rounds = threading.Event(), time.monotonic(), 0
        self.http, self.error = requests.Session(), None

    def run(self) -> None:
        pending = list(self.site.clusters)
        try:
            while not self.stopping.is_set():
                if pending and self._approve(pending[0]):
                    pending.pop(0)
                self._add_rule(self.rounds)
                for name, credential in self.site.nodes:
                    self.poll(name, credential)
                self.rounds += 1
                time.sleep(PAUSE)
        except Exception as error:  # the test reads it: a refusal the load did not expect
            self.error = error
        finally:
            connection.close()

    def stop(self) -> Record:
        self.stopping.set()
        self.join(timeout=60)
        return self.record

    def _call(self, method: str, path: str, what: str, **kwargs) -> requests.Response | None:
        """One request; a connection error or a 5xx is recorded as a failure (None)."""
        try:
            response = self.http.request(method, self.base + path, timeout=30, **kwargs)
        except requests.RequestException:
            response = None
        if response is None or response.status_code >= 500:
            self.record.failures.append((time.monotonic() - self.started_at, what))
            return None
        return response

    def _admin(self) -> dict:
        return {"Authorization": f"Bearer {self.site.token}"}

    def _approve(self, pk: int) -> bool:
        """Approve request pk (True once acknowledged); a 409 after a failure is the lost answer of a success."""
        failed_before = bool(self.record.failures) and self.record.failures[-1][1] == f"approve {pk}"
        response = self._call("POST", f"/api/v1/clusters/{pk}/approve/", f"approve {pk}", headers=self._admin())
        if response is None:
            return False
        if response.status_code == 409 and failed_before:
            state = self._call("GET", f"/api/v1/clusters/{pk}/", f"read {pk}", headers=self._admin())
            if state is None or state.json().get("state") in APPROVED_OR_LATER:
                return False
            self.record.redone += 1
        elif response.status_code != 200:
            raise AssertionError(f"approve {pk}: {response.status_code} {response.text[:300]}")
        self.record.approved.append(pk)
        self.record.approved_at.append(time.monotonic() - self.started_at)
        return True

    def _add_rule(self, n: int) -> None:
        """A new allow rule in the site-wide policy (retried until acknowledged; the name makes a retry safe)."""
        body = {"policy": self.site.policy, "name": f"ha-load-{n}", "sequence": 100 + n, "sources": [],
                "destinations": [], "services": [], "action": "allow", "direction": "in"}  # fmt: skip
        for _ in range(100):
            response = self._call("POST", "/api/v1/firewall-rules/", f"rule {n}", json=body, headers=self._admin())
            if response is not None and response.status_code == 201:
                self.record.rules.append(response.json()["id"])
                return
            if response is not None:  # a retry of a create that committed: the name is taken
                found = FirewallRule.objects.filter(policy_id=self.site.policy, name=body["name"]).first()
                if found is None:
                    raise AssertionError(f"rule {n}: {response.status_code} {response.text[:300]}")
                self.record.rules.append(found.pk)
                self.record.redone += 1
                return
            time.sleep(PAUSE)

    def poll(self, name: str, credential: str) -> int | None:
        """One read of the node's document on the agent channel; the generation served."""
        headers = {"Authorization": f"Bearer {credential}"}
        response = self._call("GET", f"/api/v1/agents/{name}/desired-state", f"poll {name}", headers=headers)
        if response is None or response.status_code != 200:
            return None
        generation = int(response.headers["ETag"].removeprefix("W/").strip('"').split(".", 1)[0])  # gzip: weak
        self.record.seen[name] = generation
        return generation


def check(record: Record) -> list[str]:
    """Everything wrong after the load: empty when every acknowledged write is there once and the chain verifies."""
    problems = []
    approvals = Counter(AuditEvent.objects.filter(action="cluster.approve").values_list("object_id", flat=True))
    states = dict(VirtualCluster.objects.filter(pk__in=record.approved).values_list("pk", "state"))
    # Realized: the worker reconciled it (the test site has no vSphere: each reconcile is audited, and the
    # sweeps repeat it, so exactly-once of VMs and VFs is tests/vsphere/test_reconcile_e2e.py's to show).
    worker = set(AuditEvent.objects.filter(actor_kind=ActorKind.WORKER, action="cluster.reconcile",
                                           object_id__in=[str(pk) for pk in record.approved])
                 .values_list("object_id", flat=True))  # fmt: skip
    for pk in record.approved:
        state, realized = states.get(pk), str(pk) in worker
        if state in (None, *APPROVED_OR_LATER) or approvals[str(pk)] != 1 or not realized:
            problems.append(f"approval {pk}: state {state}, {approvals[str(pk)]} approve events, realized {realized}")
    rules = Counter(AuditEvent.objects.filter(action="firewall_rule.create").values_list("object_id", flat=True))
    present = set(FirewallRule.objects.filter(pk__in=record.rules).values_list("pk", flat=True))
    problems += [f"rule {pk}: missing or created {rules[str(pk)]} times" for pk in record.rules
                 if pk not in present or rules[str(pk)] != 1]  # fmt: skip
    report = chain.verify()
    if not report.ok:
        problems.append(f"audit chain: {report.problem}")
    return problems


def converged(load: Load) -> list[str]:
    """Nodes not served their latest generation by one more poll each (empty once all converged)."""
    latest = dict(
        Node.objects.filter(name__in=[n for n, _ in load.site.nodes]).values_list("name", "desired_generation")
    )
    lagging = []
    for name, credential in load.site.nodes:
        served = load.poll(name, credential)
        if served != latest[name]:
            lagging.append(f"node {name}: served {served}, latest {latest[name]}")
    return lagging


class Portal:
    """One web process (gunicorn, the production settings file) and one worker on the test database."""

    def __init__(self, tmp, env: dict):
        port = free_port()
        self.base, self.logs = f"http://127.0.0.1:{port}", (tmp / "web.log", tmp / "worker.log")
        env = {**os.environ, "ENCLAVE_DB_NAME": settings.DATABASES["default"]["NAME"], "PYTHONUNBUFFERED": "1",
               "ENCLAVE_LEASE_SECONDS": str(TEST_LEASE_SECONDS), "ENCLAVE_BIND": f"127.0.0.1:{port}",
               "ENCLAVE_WEB_WORKERS": "1", "ENCLAVE_WEB_THREADS": "20", **env}  # fmt: skip
        web = [sys.executable, "-m", "gunicorn", "-c", "portal/gunicorn_conf.py", "portal.wsgi:application"]
        self.worker_cmd = [sys.executable, "-m", "celery", "-A", "portal", "worker", "--pool=solo", "--loglevel=INFO",
                           "--without-gossip", "--without-mingle", "-n", f"ha-load-{port}@%h"]  # fmt: skip
        self.env = env
        self.procs = [self._spawn(web, self.logs[0]), self._spawn(self.worker_cmd, self.logs[1])]

    def _spawn(self, cmd, log) -> subprocess.Popen:
        with open(log, "ab") as out:
            return subprocess.Popen(cmd, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT,
                                    start_new_session=True)  # fmt: skip

    def restart_worker(self) -> bool:
        """SIGKILL the worker (its task unacknowledged, its leases left to lapse) and start another."""
        os.killpg(self.procs[1].pid, signal.SIGKILL)
        self.procs[1].wait(timeout=20)
        ready = self.logs[1].read_bytes().count(b" ready.") + 1
        self.procs[1] = self._spawn(self.worker_cmd, self.logs[1])
        return bool(wait_for(lambda: self.logs[1].read_bytes().count(b" ready.") >= ready, 120))

    def sweep(self) -> None:
        """Send the sweeps beat sends every 30 s (lost publishes, a killed worker's work), through this broker."""
        publisher = Celery("ha-load", broker=settings.CELERY_BROKER_URL, set_as_current=False)  # not current_app
        sentinels = [a for a in self.env.get("ENCLAVE_REDIS_SENTINELS", "").split(",") if a]
        if sentinels:
            publisher.conf.broker_url = redisconn.broker_url(self.env["ENCLAVE_REDIS_URL"], sentinels)
            publisher.conf.broker_transport_options = {"master_name": settings.REDIS_SENTINEL_MASTER}
        for task in ("tenants.tasks.sweep_clusters", "agents.tasks.sweep"):
            publisher.send_task(task)

    def wait_ready(self) -> bool:
        def ready() -> bool:
            return requests.get(self.base + "/healthz", timeout=5).status_code in (200, 503) and (
                b" ready." in self.logs[1].read_bytes()
            )

        return bool(wait_for(lambda: ready() or any(p.poll() is not None for p in self.procs), 120)) and all(
            p.poll() is None for p in self.procs
        )

    def tail(self) -> str:
        return "\n".join(log.read_text()[-2000:] for log in self.logs)

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=20)


def settle(portal: Portal, load: Load, record: Record, timeout: float = 120, sweep: bool = True) -> list[str]:
    """Sweep as beat would (every 5 s here, not 30; not at all where a beat runs) until nothing is wrong or
    the timeout passes; what is left."""
    deadline = time.monotonic() + timeout
    while True:
        problems = converged(load) + check(record)
        if not problems or time.monotonic() > deadline:
            return problems
        if sweep:
            portal.sweep()
        time.sleep(5)


@contextlib.contextmanager
def using(env: dict):
    """This process's ORM (every thread's next connection) on the database `env` names, as the portal reads it.

    For a fault test whose portal runs on another database (the Patroni cluster): seed and check there.
    """
    default = connections["default"]
    saved, settings_dict = dict(default.settings_dict), default.settings_dict  # the dict every thread reads
    hosts = multi_host(env["ENCLAVE_DB_HOSTS"].split(","), connect_timeout=5)
    default.close()
    settings_dict.update(HOST=hosts["HOST"], PORT=hosts["PORT"], OPTIONS={**saved["OPTIONS"], **hosts["OPTIONS"]},
                         NAME=env["ENCLAVE_DB_NAME"], USER=env["ENCLAVE_DB_USER"],
                         PASSWORD=env["ENCLAVE_DB_PASSWORD"])  # fmt: skip
    try:
        yield
    finally:
        default.close()
        settings_dict.clear()
        settings_dict.update(saved)
