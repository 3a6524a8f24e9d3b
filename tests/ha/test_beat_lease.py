"""Beat on exactly one host: two real `celery beat` processes share a Redis lease; SIGKILL the holder.

The last test kills the holder under the shared load (tests/ha/load.py) through a real web process and
worker: the standby sends the sweeps from then on, and every acknowledged write is there once.
"""

import json
import os
import subprocess
import sys
import uuid

import pytest
from django.conf import settings

from tests.conftest import ROOT, _wait_for
from tests.ha.load import Load, Portal, check, seed, settle

LEASE_SECONDS = 2  # short, so the takeover after a SIGKILL comes quickly


class Beat:
    """One `celery beat` process with the leased scheduler (or the lease switched off)."""

    def __init__(self, tmp, name: str, env: dict, app: str = "tests.ha.beat_app"):
        self.log = tmp / f"{name}.log"
        cmd = [sys.executable, "-m", "celery", "-A", app, "beat", "--loglevel=INFO",
               "--schedule", str(tmp / f"{name}-schedule")]  # fmt: skip
        with open(self.log, "wb") as out:
            self.proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)

    @property
    def origin(self) -> str:
        return f"gen{self.proc.pid}@"

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=20)


@pytest.fixture
def beats(redis_client, tmp_path):
    """Start beats on a fresh lease key and queue; yields (start, sent) and kills them all after."""
    run = uuid.uuid4().hex[:8]
    queue, key = f"ha-beat-{run}", f"enclave:test:beat:{run}"
    started = []

    def start(name: str, lease: bool = True, app: str = "tests.ha.beat_app") -> Beat:
        broker = settings.REDIS_URL
        env = dict(os.environ, ENCLAVE_HA_QUEUE=queue, ENCLAVE_BEAT_LEASE_KEY=key, ENCLAVE_BROKER_URL=broker,
                   ENCLAVE_BEAT_LEASE="1" if lease else "0", ENCLAVE_BEAT_LEASE_SECONDS=str(LEASE_SECONDS))  # fmt: skip
        started.append(Beat(tmp_path, name, env, app))
        return started[-1]

    start.lease_key = key

    def sent() -> list[tuple[str, int | None]]:
        """(origin, epoch) of every task sent so far, oldest first."""
        messages = [json.loads(raw)["headers"] for raw in reversed(redis_client.lrange(queue, 0, -1))]
        return [(h["origin"], h.get("enclave_beat_epoch")) for h in messages]

    yield start, sent
    for beat in started:
        beat.stop()
    redis_client.delete(queue, key, key + ":epoch")


def _from(beat: Beat, messages) -> list:
    return [m for m in messages if m[0].startswith(beat.origin)]


def test_only_the_lease_holder_sends_the_schedule_and_another_beat_takes_over_when_it_is_killed(beats):
    start, sent = beats
    first = start("first")
    assert _wait_for(lambda: len(_from(first, sent())) >= 2, 90), first.log.read_text()[-2000:]
    second = start("second")
    assert _wait_for(lambda: b"beat: Starting" in second.log.read_bytes(), 90), second.log.read_text()[-2000:]
    before = len(_from(first, sent()))
    # The standby has had several of its own ticks while the holder kept sending.
    assert _wait_for(lambda: len(_from(first, sent())) >= before + 2 * LEASE_SECONDS * 2 + 4, 90)
    assert _from(second, sent()) == []

    first.proc.kill()
    first.proc.wait(timeout=20)
    assert _wait_for(lambda: len(_from(second, sent())) >= 3, 90), second.log.read_text()[-2000:]
    order = [origin.startswith(second.origin) for origin, _ in sent()]
    assert order == sorted(order)  # every task of the first holder, then only the second's: never both
    epochs = {origin.startswith(second.origin): epoch for origin, epoch in sent()}
    assert epochs[True] > epochs[False] > 0  # the fencing token grew with the takeover


def test_without_the_lease_two_beats_both_send_the_schedule(beats):
    # Negative control: the check above fails when the lease is off.
    start, sent = beats
    first, second = start("first", lease=False), start("second", lease=False)
    assert _wait_for(lambda: _from(first, sent()) and _from(second, sent()), 90), second.log.read_text()[-2000:]
    assert {epoch for _, epoch in sent()} == {None}


SENDING = b"Sending due task sweep-"


@pytest.mark.django_db(transaction=True)
def test_under_load_the_standby_beat_keeps_sweeping_after_the_holder_is_killed_and_nothing_is_lost(
    beats, world, tmp_path, redis_client
):
    start, _sent = beats
    redis_client.flushdb()  # no message another test left for a worker
    portal = Portal(tmp_path, {"ENCLAVE_BEAT_LEASE_KEY": start.lease_key})  # its worker fences on their lease
    try:
        site = seed(world)  # while the portal boots
        assert portal.wait_ready(), portal.tail()
        first = start("first", app="tests.ha.beat_sweeps")
        assert _wait_for(lambda: SENDING in first.log.read_bytes(), 90), first.log.read_text()[-2000:]
        second = start("second", app="tests.ha.beat_sweeps")
        load = Load(portal.base, site)
        load.start()
        assert _wait_for(lambda: len(load.record.approved) >= 2 or load.error, 120) and not load.error, portal.tail()
        first.proc.kill()
        first.proc.wait(timeout=20)
        assert _wait_for(lambda: SENDING in second.log.read_bytes(), 90), second.log.read_text()[-2000:]
        at_kill = load.rounds
        done = lambda: len(load.record.approved) == len(site.clusters) and load.rounds >= at_kill + 5  # noqa: E731
        assert _wait_for(lambda: done() or load.error, 120) and not load.error, (load.error, portal.tail())
        record = load.stop()
        # The surviving beat's sweeps, not the test's, are what repair anything the load left behind.
        assert settle(portal, load, record, sweep=False) == [], portal.tail()
        record.approved.append(0)  # negative control: no request has pk 0
        assert check(record) == ["approval 0: state None, 0 approve events, realized False"]
    finally:
        portal.stop()
