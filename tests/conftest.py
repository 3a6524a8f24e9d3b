"""Shared fixtures: real PostgreSQL (pytest-django), real Redis, a real Celery worker subprocess."""

import contextlib
import datetime
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis
from celery import current_app
from django.conf import settings
from django.test.utils import override_settings
from django.utils import timezone
from rest_framework.test import APIClient

from audit.context import acting_as, system_actor
from netpolicy import findings
from portal.celery import app as portal_celery
from portal.dbroles import as_owner
from tenants import services
from tenants.choices import Role
from tests.browser import browser, chromium  # noqa: F401 - the Chromium fixtures, for every test module

ROOT = Path(__file__).resolve().parent.parent
# The Celery workers the suite starts (dozens: killed, restarted, one per HA node) skip Django's system
# checks (py-spy: 12 of the 171 CPU-seconds those workers took in one run). tests/test_deployment.py runs
# `manage.py check` itself, and production workers still run the checks at start.
os.environ.setdefault("CELERY_SKIP_CHECKS", "1")


@pytest.fixture(scope="session")
def django_db_setup(request, django_test_environment, django_db_modify_db_settings, django_db_blocker):
    """Create and migrate the test database as the schema owner; every test then runs as the app role.

    So the whole suite proves the product works with the restricted role web and worker use
    (portal/dbroles.py): no DDL, and only INSERT and SELECT on the audit log.
    """
    from django.test.utils import setup_databases, teardown_databases

    verbosity = request.config.option.verbose
    with django_db_blocker.unblock(), as_owner():
        config = setup_databases(verbosity=verbosity, interactive=False, aliases={"default"}, serialized_aliases=set())
        _commit_without_waiting_for_the_disk()
        _refuse_a_server_too_small_for_the_race_tests()
    yield
    with django_db_blocker.unblock(), as_owner():
        teardown_databases(config, verbosity=verbosity)


def _commit_without_waiting_for_the_disk() -> None:
    """Every connection to the test database (this process's, the live servers', the Celery workers')
    commits without waiting for the WAL's fsync: a test database outlives no crash, and thousands of
    commits and flushes each waited a disk flush (milliseconds on a cloud disk). The failover tests'
    Patroni clusters are their own databases and keep synchronous commits."""
    from django.db import connection

    name = connection.ops.quote_name(connection.settings_dict["NAME"])
    with connection.cursor() as cursor:
        cursor.execute(f"ALTER DATABASE {name} SET synchronous_commit = off")
    connection.close()  # the setting applies to connections opened from now on


# The race tests open one connection per thread (up to 60), and two xdist workers may run two of them
# beside live servers and Celery workers: PostgreSQL's default 100 ran out once in CI.
MIN_CONNECTIONS = 250


def _refuse_a_server_too_small_for_the_race_tests() -> None:
    """Stop at once, with the fix, when the server would refuse connections at a random moment later."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SHOW max_connections")
        (limit,) = cursor.fetchone()
    if int(limit) < MIN_CONNECTIONS:
        pytest.exit(
            f"PostgreSQL allows {limit} connections; the suite needs {MIN_CONNECTIONS}. Restart it with "
            "`bash scripts/services.sh stop && bash scripts/services.sh start` (max_connections=300).",
            returncode=2,
        )


# Files that run for minutes go first, so under pytest-xdist (a file stays in one process) they
# overlap the rest of the suite instead of running alone at its end. Only with
# --no-loadscope-reorder (scripts/test.sh): by default xdist hands out files with the most tests first.
LONG_FILES = (
    "agent/test_vrf_guest.py",
    "security/test_schemathesis.py",
    "vsphere/test_capacity_db.py",
    "vsphere/test_devices_db.py",
)


# Last: the Terraform tests wait for the Terraform build that scripts/test.sh starts in the background.
LAST_FILES = ("terraform/",)


def pytest_collection_modifyitems(items):
    """Long files first, the Terraform tests last (a stable sort: every other test keeps its order)."""

    def rank(item):
        if item.nodeid.startswith(tuple(f"tests/{name}" for name in LAST_FILES)):
            return len(LONG_FILES) + 1
        found = (i for i, name in enumerate(LONG_FILES) if item.nodeid.startswith(f"tests/{name}"))
        return next(found, len(LONG_FILES))

    items.sort(key=rank)


# migrate's rows, which no test changes: Django's flush truncated them and rebuilt them (post_migrate).
STATIC_TABLES = frozenset({"django_content_type", "auth_permission"})


def _empty_what_the_test_wrote(self) -> None:
    """TransactionTestCase's teardown, as the schema owner in one transaction: every table locked, the rows
    of those the test wrote deleted, migrate's content types and permissions kept.

    Django's flush truncated all ~80 tables and rebuilt the content types and permissions: 1.3 s after
    each of some 200 tests that commit (live servers, Celery workers), where a DELETE of the dozen tables
    a test wrote takes 0.1 s (TRUNCATE swaps every table's and index's files). Foreign keys are deferred
    to the commit; the tables' own triggers (the append-only audit log, immutable catalog versions) are
    off inside the transaction, as `manage.py flush` lifts the audit log's guards."""
    from django.db import connections, transaction

    for alias in self._databases_names(include_mirrors=False):
        connection = connections[alias]
        with as_owner(alias), transaction.atomic(using=alias), connection.cursor() as cursor:
            names = sorted(set(connection.introspection.django_table_names(only_existing=True)) - STATIC_TABLES)
            tables = [connection.ops.quote_name(name) for name in names]
            cursor.execute(f"LOCK TABLE {', '.join(tables)} IN ACCESS EXCLUSIVE MODE")
            probes = [f"(SELECT {i} FROM {table} LIMIT 1)" for i, table in enumerate(tables)]  # noqa: S608 (model tables)
            cursor.execute(" UNION ALL ".join(probes))
            written = {names[row[0]] for row in cursor.fetchall()}
            cursor.execute("SELECT DISTINCT tgrelid::regclass::text FROM pg_trigger WHERE NOT tgisinternal")
            guarded = sorted(written & {row[0] for row in cursor.fetchall()})
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")
            for name in guarded:
                cursor.execute(f"ALTER TABLE {connection.ops.quote_name(name)} DISABLE TRIGGER USER")
            for name in sorted(written):
                cursor.execute(f"DELETE FROM {connection.ops.quote_name(name)}")  # noqa: S608 (a model table)
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # checked now: no table may re-enable with checks pending
            for name in guarded:
                cursor.execute(f"ALTER TABLE {connection.ops.quote_name(name)} ENABLE TRIGGER USER")


@pytest.fixture(scope="session", autouse=True)
def _fast_transactional_teardown():
    """Tests that commit end with _empty_what_the_test_wrote instead of Django's whole flush."""
    from django.test import TransactionTestCase

    saved = TransactionTestCase._fixture_teardown
    TransactionTestCase._fixture_teardown = _empty_what_the_test_wrote
    yield
    TransactionTestCase._fixture_teardown = saved


@pytest.fixture(scope="session", autouse=True)
def _fast_password_hashing():
    """Test users' passwords hash in microseconds: the product's PBKDF2 (a million rounds, on purpose
    slow) made each test's five users cost ~2 s, a third of the suite. Nothing here tests hashing."""
    with override_settings(
        PASSWORD_HASHERS=[
            "django.contrib.auth.hashers.MD5PasswordHasher",
            "django.contrib.auth.hashers.PBKDF2PasswordHasher",
        ]
    ):
        yield


@pytest.fixture(scope="session", autouse=True)
def _secrets_dir(tmp_path_factory):
    """vCenter secret files (the simulators' CA bundles) live under the session's temporary directory."""
    base = str(tmp_path_factory.getbasetemp())
    os.environ["ENCLAVE_SECRETS_DIR"] = base  # the Celery worker subprocess reads the same
    settings.SECRETS_DIR = base
    return base


@pytest.fixture(autouse=True)
def _fresh_lint_builds():
    """Each test starts with no kept lint builds: a rolled-back database gives its generations out again."""
    findings.forget_builds()


@pytest.fixture(autouse=True)
def _fresh_rate_limits(redis_client):
    """Each test starts with no throttle counters or cached status (the cache is shared Redis)."""
    keys = list(redis_client.scan_iter(match="enclave-cache:*", count=1000))
    keys += redis_client.scan_iter(match="enclave:db*:node-rate:*", count=1000)  # agents.throttling
    keys += redis_client.scan_iter(match="enclave:db*:fabric-rate:*", count=1000)  # fabrics.api's throttle
    if keys:
        redis_client.delete(*keys)


@pytest.fixture(autouse=True)
def _portal_stays_the_current_celery_app():
    """A test that leaves another Celery app current fails: every later publish in its process would use it."""
    yield
    leaked = current_app._get_current_object()
    portal_celery.set_current()
    assert leaked is portal_celery, f"this test left Celery app {leaked.main!r} current (use set_as_current=False)"


@pytest.fixture(autouse=True)
def _fresh_actor():
    """Each test starts as the system actor with its own request id."""
    with acting_as(system_actor("pytest")):
        yield


@contextlib.contextmanager
def pool_of(max_size: int, timeout: int = 30):
    """The default connection (every thread's) through a real psycopg pool, as ENCLAVE_DB_POOL_SIZE makes it."""
    from django.db import connection

    options = connection.settings_dict["OPTIONS"]  # the dict every thread's connection reads
    connection.close()
    options["pool"] = {"min_size": 1, "max_size": max_size, "timeout": timeout}
    try:
        yield connection.pool
    finally:
        connection.close()
        connection.close_pool()
        del options["pool"]


@pytest.fixture
def pooled_connections(transactional_db):
    """Connections come from a psycopg pool, for tests whose live server answers thousands of requests: each
    of its request threads would otherwise open a connection of its own (SCRAM and a backend fork: ~20 ms)."""
    with pool_of(8) as pool:
        yield pool


def new_user(username: str, staff: bool = False):
    """A user with the password "pw-<username>" (tests and the failover benchmark)."""
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(username, f"{username}@example.org", "pw-" + username,
                                                is_staff=staff)  # fmt: skip


@pytest.fixture
def make_user():
    return new_user


class World:
    """Two tenants, A and B, with an owner and a member each, plus a site admin."""

    def __init__(self, make_user):
        self.admin = make_user("site-admin", staff=True)
        self.owner_a, self.member_a = make_user("owner-a"), make_user("member-a")
        self.owner_b, self.member_b = make_user("owner-b"), make_user("member-b")
        self.tenant_a = services.create_tenant("tenant-a", "Tenant A", owner=self.owner_a)
        self.tenant_b = services.create_tenant("tenant-b", "Tenant B", owner=self.owner_b)
        services.set_membership(self.tenant_a, self.member_a, Role.MEMBER)
        services.set_membership(self.tenant_b, self.member_b, Role.MEMBER)


@pytest.fixture
def world(db, make_user):
    return World(make_user)


def cluster_data(**overrides) -> dict:
    """A valid cluster request body (API field names)."""
    data = {
        "name": "mpi-1",
        "workload_class": "parallel-distributed",
        "worker_count": 2,
        "vcpus_per_node": 8,
        "memory_gb_per_node": 32,
        "login_node": True,
        "interconnect": "sriov-ib",
        "network_mode": "vlan",
        "data_path": "standard",
        "lease_end": (timezone.localdate() + datetime.timedelta(days=30)).isoformat(),
        "justification": "OpenFOAM runs for the wind-tunnel paper",
    }
    data.update(overrides)
    return data


def service_data(**overrides) -> dict:
    """A valid cluster request for the service layer (dates as dates)."""
    data = cluster_data(**overrides)
    data["lease_end"] = datetime.date.fromisoformat(data["lease_end"])
    return data


@pytest.fixture
def api():
    """An API client logged in as the given user (or anonymous)."""

    def client(user=None):
        c = APIClient()
        if user is not None:
            c.force_authenticate(user)
        return c

    return client


@pytest.fixture(scope="session")
def redis_client():
    client = redis.Redis.from_url(settings.REDIS_URL)
    client.ping()
    return client


TEST_LEASE_SECONDS = 4  # core.leases in the worker: lost work is swept again after this


class Worker:
    """A real `celery worker` process on the real Redis broker and the test database; tests may
    SIGKILL it mid-task and start another."""

    def __init__(self, log):
        self.log_path, self.proc = log, None

    def start(self) -> None:
        env = dict(os.environ, ENCLAVE_DB_NAME=settings.DATABASES["default"]["NAME"], PYTHONUNBUFFERED="1",
                   ENCLAVE_LEASE_SECONDS=str(TEST_LEASE_SECONDS))  # fmt: skip
        cmd = [sys.executable, "-m", "celery", "-A", "portal", "worker", "--pool=solo", "--loglevel=INFO",
               "--without-gossip", "--without-mingle", "-n", f"pytest-{os.getpid()}@%h",
               "-Q", f"celery,{settings.WEBHOOK_QUEUE}"]  # fmt: skip
        start = self.log_path.stat().st_size if self.log_path.exists() else 0
        with open(self.log_path, "ab") as out:
            self.proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        ready = lambda: b" ready." in self.log_path.read_bytes()[start:] or self.proc.poll() is not None  # noqa: E731
        _wait_for(ready, 60)
        if self.proc.poll() is not None:
            pytest.fail(f"celery worker exited: {self.log_path.read_text()[-2000:]}")

    def kill(self) -> None:
        """SIGKILL: no cleanup, no ack, its leases lapse."""
        self.proc.kill()
        self.proc.wait(timeout=20)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()


@pytest.fixture
def celery_worker(django_db_setup, django_db_blocker, redis_client, tmp_path_factory):
    """A real `celery worker` process on the real Redis broker and the test database.

    One per test that asks for it, stopped (warm: its running task finishes) before the test's
    database is flushed, so no task queued by this or another test reads tables being truncated."""
    redis_client.flushdb()
    worker = Worker(tmp_path_factory.mktemp("worker") / "worker.log")
    worker.start()
    yield worker
    worker.stop()


def _wait_for(predicate, timeout: float, interval: float = 0.2):
    """Wait until predicate() is true or the timeout passes; return its last value."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    return predicate()


@pytest.fixture
def wait_for():
    return _wait_for
