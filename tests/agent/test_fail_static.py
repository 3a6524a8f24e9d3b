"""Nodes fail static: an hour without the portal (a simulated clock) changes nothing; its return converges.

The agent's loop runs against the stdlib portal double, stopped for the outage and started again on the
same port with a newer document. The kernel side is a recorder of the documents the agent applies
(the kernel passes themselves are tested in test_agent_host_kernel.py).
"""

import json
import socket
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

import pytest
from enclave_agent.agent import Report, Reporter, write_atomic
from enclave_agent.client import PortalClient
from enclave_agent.plan import Capabilities
from enclave_agent.poll import loop
from enclave_agent.state import loads
from portal_double import CREDENTIAL
from topo import desired

DOUBLE = str(Path(__file__).with_name("portal_double.py"))
OUTAGE = 3600.0  # simulated seconds without the portal
RETRY_MAX = 60.0


class Clock:
    """Simulated time: the loop's sleep advances it instead of waiting."""

    def __init__(self):
        self.now, self.pauses = 0.0, []

    def sleep(self, seconds: float) -> None:
        self.pauses.append(seconds)
        self.now += seconds


class RecordingAgent:
    """The loop's view of an agent; each applied document is recorded with the simulated time."""

    def __init__(self, state_dir: Path, clock: Clock):
        self.dir, self.clock, self.applied = state_dir, clock, []
        self.cache, self.refused, self.ib_ports = object(), None, []
        self.caps, self.reporter = Capabilities(vrf=True, vxlan=True, nftables=True), Reporter()

    def last_desired(self):
        return loads((self.dir / "desired.json").read_text())

    def run_pass(self, state, full: bool = False) -> Report:
        self.applied.append((self.clock.now, state.generation, len(state.tenants)))
        write_atomic(self.dir / "desired.json", state.to_json())
        return Report(state.generation, full, 0, 0, 0.0, asdict(self.caps))


class Portal:
    """The portal double on a fixed port; stop() makes it unreachable, start() brings it back."""

    def __init__(self, tmp: Path):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.state, self.observed, self.proc = tmp / "state.json", tmp / "observed.json", None

    def start(self, document: dict) -> None:
        self.state.write_text(json.dumps(document))
        files = ["--state", str(self.state), "--observed", str(self.observed)]
        cmd = [sys.executable, DOUBLE, "--port", str(self.port), *files]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout.readline().strip() == "READY"

    def stop(self) -> None:
        self.proc.kill()
        self.proc.wait()


@pytest.fixture
def portal(tmp_path):
    double = Portal(tmp_path)
    yield double
    if double.proc is not None and double.proc.poll() is None:
        double.stop()


def held_static(applied, generation: int, tenants: int) -> bool:
    """Every document applied during the outage is the last one before it, whole (never a flush)."""
    return bool(applied) and all(g == generation and n == tenants for _, g, n in applied)


def test_an_hour_without_the_portal_keeps_the_last_document_and_its_return_converges(portal, tmp_path):
    clock, state_dir = Clock(), tmp_path / "agent"
    state_dir.mkdir()
    (state_dir / "desired.json").write_text(json.dumps(desired("n1", 1, [70001, 70002])))  # applied before the outage
    agent = RecordingAgent(state_dir, clock)
    client = PortalClient(f"http://127.0.0.1:{portal.port}", "n1", CREDENTIAL, timeout=2)

    loop(agent, client, wait=1, retry_max=RETRY_MAX, stop=lambda: clock.now >= OUTAGE, sleep=clock.sleep)
    assert held_static(agent.applied, 1, 2), agent.applied
    assert len(clock.pauses) > OUTAGE / (RETRY_MAX * 1.5)  # it kept trying all hour...
    assert max(clock.pauses) <= RETRY_MAX * 1.5  # ...never more than a jittered minute apart
    assert loads((state_dir / "desired.json").read_text()).generation == 1  # nothing flushed on disk either

    portal.start(desired("n1", 1, [70001, 70003], generation=2))
    outage_passes = len(agent.applied)
    loop(agent, client, wait=1, retry_max=RETRY_MAX, stop=lambda: agent.applied[-1][1] == 2, sleep=clock.sleep)
    assert agent.applied[outage_passes:][-1][1:] == (2, 2)
    assert json.loads(portal.observed.read_text())["generation"] == 2  # and it told the portal


def test_the_check_fails_for_an_agent_that_flushed_during_the_outage():
    # Negative control: a flush (an empty document applied) or a different document is not "static".
    assert not held_static([(0.0, 1, 2), (60.0, 0, 0)], 1, 2)
    assert not held_static([], 1, 2)
