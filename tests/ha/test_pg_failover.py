"""PostgreSQL failover: approvals acknowledged to a client survive a SIGKILL of the Patroni leader.

Patroni (synchronous_mode: on) promotes the synchronous standby; the client (the portal's settings with
ENCLAVE_DB_HOSTS: libpq multi-host, target_session_attrs=read-write) follows it. Losing an etcd member
stops nothing. Migrations and the two database roles run unchanged on the cluster. The tests share one
cluster and run in this order: an etcd member is killed, then the PostgreSQL leader, then (asynchronous
replication) the next one.
"""

import contextlib
import json
import os
import signal
import subprocess
import sys

import pytest

from tests.conftest import ROOT
from tests.ha.patroni import PASSWORD, PGBIN, PatroniCluster
from tests.ha.sentinel import wait_for

ROLES = {"owner": "enclave_owner", "app": "enclave_app", "dbname": "enclave"}


@pytest.fixture(scope="module")
def patroni():
    cluster = PatroniCluster().start()
    yield cluster
    cluster.stop()


@pytest.fixture(scope="module")
def portal_env(patroni):
    """The portal's environment on the cluster: roles created by scripts/db-roles.sql, then `migrate`."""
    leader_port = patroni.members[patroni.leader()][1]
    variables = [f"--set={k}={v}" for k, v in ROLES.items()]
    variables += [f"--set=owner_password={PASSWORD}", f"--set=app_password={PASSWORD}", "--set=owner_createdb=CREATEDB"]
    subprocess.run([str(PGBIN / "psql"), "-h", "127.0.0.1", "-p", str(leader_port), "-U", "postgres", "-d", "postgres",
                    "-qtA", "-f", "scripts/db-roles.sql", *variables], cwd=ROOT, check=True, capture_output=True,
                   env=dict(os.environ, PGPASSWORD=PASSWORD))  # fmt: skip
    env = dict(os.environ, ENCLAVE_DB_HOSTS=patroni.hosts(), ENCLAVE_DB_NAME=ROLES["dbname"],
               ENCLAVE_DB_USER=ROLES["app"], ENCLAVE_DB_PASSWORD=PASSWORD, ENCLAVE_DB_OWNER_USER=ROLES["owner"],
               ENCLAVE_DB_OWNER_PASSWORD=PASSWORD, DJANGO_SETTINGS_MODULE="portal.settings")  # fmt: skip
    env.pop("ENCLAVE_DB_HOST", None), env.pop("ENCLAVE_DB_PORT", None)
    result = subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env,
                            capture_output=True, text=True)  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    return env


def _check(env, acked) -> dict:
    result = subprocess.run([sys.executable, "-m", "tests.ha.pg_writer", "check"], cwd=ROOT, env=env, text=True,
                            input="\n".join(map(str, acked)), capture_output=True)  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout)


def _acked(log) -> list[int]:
    return [int(line.split()[1]) for line in log.read_text().splitlines() if line.startswith("ACK ")]


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


def test_every_approval_acknowledged_before_the_leader_is_killed_is_realized_once_on_the_new_leader(
    patroni, portal_env, tmp_path
):
    log = tmp_path / "writer.log"
    with _writer(portal_env, log):
        assert wait_for(lambda: len(_acked(log)) >= 20, 120), log.read_text()[-3000:]
        killed = patroni.kill_leader()
        at_kill = len(_acked(log))
        assert wait_for(lambda: patroni.leader() not in (None, killed), 120), patroni.log("pg2")
        assert wait_for(lambda: len(_acked(log)) >= at_kill + 20, 120), log.read_text()[-3000:]
    report = _check(portal_env, _acked(log))
    assert report["missing"] == [] and report["duplicated"] == [], report
    assert report["chain_ok"], report["chain_problem"]
    assert "ERR" in log.read_text()  # the client did see the primary go


def test_the_check_reports_an_acknowledged_approval_that_the_database_lacks(patroni, portal_env):
    # Negative control of the check itself: an acknowledgement the database cannot show.
    report = _check(portal_env, [10**9])
    assert report["missing"] == [10**9]


def test_with_asynchronous_replication_approvals_acknowledged_before_a_failover_are_lost(patroni, portal_env, tmp_path):
    # Negative control: synchronous mode is what saved them above. With it off and the leader's WAL senders
    # stopped, commits are acknowledged that no standby can have; the promoted one lacks them.
    patroni.set_synchronous(False)
    log = tmp_path / "writer.log"
    with _writer(portal_env, log, start=10**6):
        assert wait_for(lambda: len(_acked(log)) >= 5, 120), log.read_text()[-3000:]
        assert patroni.pause_replication()
        paused_at = len(_acked(log))
        assert wait_for(lambda: len(_acked(log)) >= paused_at + 10, 120), log.read_text()[-3000:]
        killed = patroni.kill_leader()
        unreplicated = set(_acked(log)[paused_at:])
        assert wait_for(lambda: patroni.leader() not in (None, killed), 120), patroni.log("pg3")
        assert wait_for(lambda: len(_acked(log)) > paused_at + len(unreplicated), 120), log.read_text()[-3000:]
    report = _check(portal_env, _acked(log))
    assert report["missing"] and set(report["missing"]) <= unreplicated, report


def test_the_app_role_still_cannot_rewrite_the_audit_log_on_the_promoted_leader(patroni, portal_env):
    sql = "UPDATE audit_auditevent SET action = action"
    code = f"from django.db import connection; connection.cursor().execute('{sql}')"
    result = subprocess.run([sys.executable, "manage.py", "shell", "-c", code], cwd=ROOT, env=portal_env,
                            capture_output=True, text=True)  # fmt: skip
    assert result.returncode != 0 and "permission denied" in result.stderr
