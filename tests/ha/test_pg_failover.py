"""PostgreSQL failover: approvals acknowledged to a client survive a SIGKILL of the Patroni leader.

The leader is killed under the shared load (tests/ha/load.py: approvals, site-wide rule changes and node
polls through a real web process and worker on the cluster); seeding and checks read the cluster too.

Patroni (synchronous_mode: on) promotes the synchronous standby; the client (the portal's settings with
ENCLAVE_DB_HOSTS: libpq multi-host, target_session_attrs=read-write) follows it. Losing an etcd member
stops nothing. Migrations and the two database roles run unchanged on the cluster. The tests share one
cluster and run in this order: an etcd member is killed, then the PostgreSQL leader, then (asynchronous
replication) the next one.
"""

import contextlib
import json
import signal
import subprocess
import sys

import pytest
from django.db import connections

from audit.context import acting_as, system_actor
from tests.conftest import ROOT, World, new_user
from tests.ha.load import Load, Portal, check, seed, settle, using
from tests.ha.patroni import PatroniCluster
from tests.ha.patroni import portal_env as migrated_portal_env
from tests.ha.sentinel import wait_for


@pytest.fixture(scope="module")
def patroni():
    cluster = PatroniCluster().start()
    yield cluster
    cluster.stop()


@pytest.fixture(scope="module")
def portal_env(patroni):
    """The portal's environment on the cluster: roles created by scripts/db-roles.sql, then `migrate`."""
    return migrated_portal_env(patroni, ROOT)


def _check(env, acked) -> dict:
    result = subprocess.run([sys.executable, "-m", "tests.ha.pg_writer", "check"], cwd=ROOT, env=env, text=True,
                            input="\n".join(map(str, acked)), capture_output=True)  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout)


def _acked(log) -> list[int]:
    """The approvals acknowledged in a writer's log (a Path), or in some of its text."""
    text = log if isinstance(log, str) else log.read_text()
    return [int(line.split()[1]) for line in text.splitlines() if line.startswith("ACK ")]


@contextlib.contextmanager
def _writer(env, log, start: int = 0):
    """pg_writer approving from `start` on, its ACK lines in `log`; SIGKILLed on leaving."""
    with open(log, "wb") as out:
        writer = subprocess.Popen([sys.executable, "-m", "tests.ha.pg_writer", "write", str(start)], cwd=ROOT,
                                  env=env, stdout=out, stderr=subprocess.STDOUT)  # fmt: skip
    try:
        yield writer
    finally:
        writer.send_signal(signal.SIGKILL)
        writer.wait(timeout=20)


def test_approvals_continue_while_an_etcd_member_is_killed(patroni, portal_env, tmp_path):
    log = tmp_path / "writer.log"
    with _writer(portal_env, log, start=10**5):
        assert wait_for(lambda: len(_acked(log)) >= 20, 120), log.read_text()[-3000:]
        patroni.kill_etcd_follower()
        at_kill = len(_acked(log))
        assert wait_for(lambda: len(_acked(log)) >= at_kill + 20, 120), log.read_text()[-3000:]
        assert wait_for(patroni.etcd_leader, 30)  # the two left still have a leader
        assert wait_for(patroni.leader, 120), patroni.log("pg1")
    report = _check(portal_env, _acked(log))
    assert report["missing"] == [] and report["duplicated"] == [], report


def test_every_approval_and_rule_acknowledged_under_load_is_there_once_after_the_leader_is_killed(
    patroni, portal_env, django_db_blocker, tmp_path
):
    portal = Portal(tmp_path, {k: v for k, v in portal_env.items() if k.startswith("ENCLAVE_DB")})
    with django_db_blocker.unblock(), using(portal_env):
        try:
            with acting_as(system_actor("pytest")):
                site = seed(World(new_user))  # on the cluster, while the portal boots
            assert portal.wait_ready(), portal.tail()
            load = Load(portal.base, site)
            load.start()
            assert wait_for(lambda: len(load.record.approved) >= 2 or load.error, 120) and not load.error, portal.tail()
            killed = patroni.kill_leader()
            at_kill = load.rounds
            assert wait_for(lambda: patroni.leader() not in (None, killed), 120), patroni.log("pg2")
            done = lambda: len(load.record.approved) == len(site.clusters) and load.rounds >= at_kill + 5  # noqa: E731
            assert wait_for(lambda: done() or load.error, 180) and not load.error, (load.error, portal.tail())
            record = load.stop()
            connections.close_all()  # this thread's connection went with the old leader
            assert settle(portal, load, record) == [], portal.tail()
            assert record.failures  # the portal did see the leader go (the window the benchmark measures)
            # Negative control: the same check reports an acknowledgement the database does not show.
            record.approved.append(0)  # no request has pk 0
            assert check(record) == ["approval 0: state None, 0 approve events, realized False"]
        finally:
            portal.stop()


def test_the_check_reports_an_acknowledged_approval_that_the_database_lacks(patroni, portal_env):
    # Negative control of the check itself: an acknowledgement the database cannot show.
    report = _check(portal_env, [10**9])
    assert report["missing"] == [10**9]


def test_with_asynchronous_replication_approvals_acknowledged_before_a_failover_are_lost(patroni, portal_env, tmp_path):
    # Negative control: synchronous mode is what saved them above. With it off and the leader's WAL senders
    # stopped, commits are acknowledged that no standby can have; the promoted one lacks them.
    patroni.set_synchronous(False)
    log = tmp_path / "writer.log"
    with _writer(portal_env, log, start=10**6) as writer:
        assert wait_for(lambda: len(_acked(log)) >= 5, 120), log.read_text()[-3000:]
        writer.send_signal(signal.SIGSTOP)  # so every approval acknowledged so far is on the standby first
        assert wait_for(patroni.replayed, 60)
        assert patroni.pause_replication()
        paused_at = len(_acked(log))
        writer.send_signal(signal.SIGCONT)
        assert wait_for(lambda: len(_acked(log)) >= paused_at + 10, 120), log.read_text()[-3000:]
        killed = patroni.kill_leader()
        assert wait_for(lambda: patroni.leader() not in (None, killed), 120), patroni.log("pg3")
        assert wait_for(lambda: "ERR" in log.read_text() and _acked_after_error(log), 120), log.read_text()[-3000:]
    report = _check(portal_env, _acked(log))
    # Acknowledged after the pause and before the writer's first error (its first call after the kill).
    unreplicated = set(_acked(log.read_text().partition("\nERR ")[0])[paused_at:])
    assert report["missing"] and set(report["missing"]) <= unreplicated, report


def _acked_after_error(log) -> bool:
    """The writer has had an approval acknowledged by the new leader."""
    return "ACK " in log.read_text().partition("\nERR ")[2]


def test_the_app_role_still_cannot_rewrite_the_audit_log_on_the_promoted_leader(patroni, portal_env):
    sql = "UPDATE audit_auditevent SET action = action"
    code = f"from django.db import connection; connection.cursor().execute('{sql}')"
    result = subprocess.run([sys.executable, "manage.py", "shell", "-c", code], cwd=ROOT, env=portal_env,
                            capture_output=True, text=True)  # fmt: skip
    assert result.returncode != 0 and "permission denied" in result.stderr
