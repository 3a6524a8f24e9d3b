"""Fencing: a real worker drops a task stamped with a beat epoch older than the lease's current one."""

import os
import subprocess
import sys
import uuid

import pytest
from celery import Celery
from django.conf import settings
from django.test import override_settings

from portal.beat import EPOCH_HEADER
from portal.metrics import StateCollector
from tests.conftest import ROOT, _wait_for

CURRENT = 5  # the epoch of the beat that holds the lease now; 4 is the one it took the lease from


@pytest.fixture(scope="module")
def workers(tmp_path_factory, redis_client):
    """Two real workers started together (fencing on, fencing off), each on its own queue; yields their envs."""
    tmp, run = tmp_path_factory.mktemp("fencing"), uuid.uuid4().hex[:8]
    started = {}
    for fencing in (True, False):
        name = f"{run}-{int(fencing)}"
        queue = f"ha-fence-{name}"
        env = dict(os.environ, ENCLAVE_HA_QUEUE=queue, ENCLAVE_BEAT_LEASE_KEY=f"enclave:test:fence:{name}",
                   ENCLAVE_BROKER_URL=settings.REDIS_URL, ENCLAVE_BEAT_FENCING=str(int(fencing)))  # fmt: skip
        log = tmp / f"worker-{name}.log"
        cmd = [sys.executable, "-m", "celery", "-A", "tests.ha.beat_app", "worker", "--pool=solo", "-Q", queue,
               "--loglevel=INFO", "--without-gossip", "--without-mingle", "-n", f"fence-{name}@%h"]  # fmt: skip
        with open(log, "wb") as out:
            proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        started[fencing] = (proc, env, log)
    for proc, _, log in started.values():
        up = lambda p=proc, out=log: b" ready." in out.read_bytes() or p.poll() is not None  # noqa: E731
        assert _wait_for(up, 120) and proc.poll() is None, log.read_text()[-3000:]
    yield {fencing: (env, log) for fencing, (_, env, log) in started.items()}
    for proc, env, _ in started.values():
        proc.kill()
        proc.wait(timeout=20)
        redis_client.delete(*(env["ENCLAVE_BEAT_LEASE_KEY"] + tail for tail in (":epoch", ":fenced")))


def _run_three(env, redis_client) -> list[bytes]:
    """Send a stale-epoch task, a current-epoch one and an unstamped one; the labels the worker ran, in order."""
    key, lease = f"ha-fence-ran-{uuid.uuid4().hex[:8]}", env["ENCLAVE_BEAT_LEASE_KEY"]
    redis_client.set(lease + ":epoch", CURRENT)
    publisher = Celery("fence-test", broker=settings.REDIS_URL, set_as_current=False)
    for label, epoch in (("stale", CURRENT - 1), ("current", CURRENT), ("unstamped", None)):
        headers = {EPOCH_HEADER: epoch} if epoch is not None else {}
        publisher.send_task("ha.record", args=[key, label], queue=env["ENCLAVE_HA_QUEUE"], headers=headers)
    # One solo worker runs its queue in order: once the last has run, the stale one was handled.
    assert _wait_for(lambda: b"unstamped" in redis_client.lrange(key, 0, -1), 90)
    ran = redis_client.lrange(key, 0, -1)
    redis_client.delete(key)
    return ran


def test_a_worker_drops_a_task_from_a_superseded_beat_and_runs_the_current_beats(workers, redis_client):
    env, log = workers[True]
    assert _run_three(env, redis_client) == [b"current", b"unstamped"]
    assert "dropped a task of epoch 4" in log.read_text()
    with override_settings(BEAT_LEASE_KEY=env["ENCLAVE_BEAT_LEASE_KEY"]):  # any web process scrapes the count
        assert StateCollector()._fenced().samples[0].value == 1  # enclave_beat_fenced_tasks_total


def test_without_fencing_the_superseded_beats_task_runs_too(workers, redis_client):
    # Negative control: the check above fails when the worker does not compare epochs.
    env, _ = workers[False]
    assert _run_three(env, redis_client) == [b"stale", b"current", b"unstamped"]
    assert redis_client.get(env["ENCLAVE_BEAT_LEASE_KEY"] + ":fenced") is None
