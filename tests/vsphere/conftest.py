"""A real vSphere API simulator (tools/vcsim) for the vSphere driver tests; no Django needed."""

from __future__ import annotations

import itertools
import json
import os
import signal
import socket
import ssl
import subprocess
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

from vsphere.naming import node_marker
from vsphere.plan.specs import ClusterIntent, NodeIntent
from vsphere.vim.driver import Driver, VCenterConfig

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "vcsim.sh"
HOSTS = 4
START_TIMEOUT = 60


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def spawn(args: list[str], log_path: Path, ready: Path, what: str) -> tuple[subprocess.Popen, dict]:
    """Start a simulator in its own process group and wait for the JSON it writes to `ready` once it listens."""
    log = open(log_path, "ab")  # noqa: SIM115 (lives with the process)
    proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    log.close()
    deadline = time.monotonic() + START_TIMEOUT
    while not ready.exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not start, see {log_path}")
        time.sleep(0.05)
    return proc, json.loads(ready.read_text())


def stop_group(proc: subprocess.Popen | None) -> None:
    """Stop a simulator's process group: SIGTERM, then SIGKILL after 10 s."""
    if proc is not None and proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


@dataclass
class Sim:
    """One running simulator process and its control endpoint."""

    workdir: Path
    port: int
    extra_args: tuple[str, ...] = ()
    proc: subprocess.Popen | None = None
    info: dict | None = None

    @property
    def ca_file(self) -> str:
        return str(self.workdir / "ca.pem")

    def start(self) -> Sim:
        ready = self.workdir / "ready.json"
        ready.unlink(missing_ok=True)
        binary = subprocess.run([SCRIPT, "path"], check=True, capture_output=True, text=True).stdout.strip()
        args = [binary, "-port", str(self.port), "-hosts", str(HOSTS), "-ready-file", str(ready)]
        args += ["-ca-out", self.ca_file, *self.extra_args]
        self.proc, self.info = spawn(args, self.workdir / f"vcsim-{self.port}.log", ready, "vcsim")
        return self

    def stop(self) -> None:
        stop_group(self.proc)
        self.proc = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def config(self, **overrides) -> VCenterConfig:
        values = {
            "host": "127.0.0.1",
            "port": self.port,
            "user": self.info["user"],
            "password": self.info["password"],
            "ca_bundle": self.ca_file,
        }
        values.update(overrides)
        return VCenterConfig(**values)

    def control(self, method: str, path: str, body: dict | None = None) -> dict:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"https://127.0.0.1:{self.port}/_enclave/{path}", data=data, method=method)
        context = ssl.create_default_context(cafile=self.ca_file)
        with urllib.request.urlopen(request, context=context, timeout=10) as reply:
            return json.loads(reply.read())

    def inject(self, method: str, fault: str, count: int = 1, **extra) -> None:
        self.control("POST", "faults", {"method": method, "fault": fault, "count": count, **extra})

    def clear_faults(self) -> None:
        self.control("DELETE", "faults")

    def stats(self) -> dict[str, int]:
        return self.control("GET", "stats")["methods"]


@pytest.fixture(scope="session")
def vcsim_binary() -> None:
    """Build (or reuse) the pinned simulator binary."""
    subprocess.run([SCRIPT, "build"], check=True)


@pytest.fixture(scope="session")
def vcsim(vcsim_binary, tmp_path_factory):
    """The shared simulator for this test session."""
    sim = Sim(workdir=tmp_path_factory.mktemp("vcsim"), port=free_port()).start()
    yield sim
    sim.stop()


@pytest.fixture
def own_vcsim(vcsim_binary, tmp_path):
    """A simulator only this test uses (for restarts), stopped afterwards."""
    sim = Sim(workdir=tmp_path, port=free_port()).start()
    yield sim
    sim.stop()


@pytest.fixture
def driver(vcsim):
    """A logged-in driver against the shared simulator; faults cleared after the test."""
    with Driver(vcsim.config()) as drv:
        yield drv
    vcsim.clear_faults()


_counter = itertools.count()


@pytest.fixture
def names(vcsim):
    """Unique object names so tests sharing one simulator never collide; removed afterwards."""
    prefix = f"t{next(_counter)}-"
    yield lambda kind: prefix + kind
    vcsim.clear_faults()
    with Driver(vcsim.config()) as drv:
        remove_everything_named(drv, prefix)


def remove_everything_named(drv: Driver, prefix: str) -> None:
    """Delete this test's VMs, then port groups, then switches (markers read back first)."""
    snap = drv.snapshot("DC0")
    for name, (vm, _mor) in snap.vms.items():
        if name.startswith(prefix):
            drv.vms.destroy("DC0", name, vm.marker)
    for name, (pg, _mor) in snap.portgroups.items():
        # Uplink port groups carry no marker and go with their switch.
        if name.startswith(prefix) and pg.marker and pg.switch_uuid:
            drv.portgroups.remove("DC0", name, pg.marker)
    for name, (dvs, _mor) in snap.switches.items():
        if name.startswith(prefix):
            drv.switches.remove("DC0", name, dvs.marker)


HOST_NAMES = tuple(f"DC0_C0_H{i}" for i in range(HOSTS))
PF0 = "0000:3b:00.0"  # 8 VFs on vmnic2
PF1 = "0000:3b:00.1"  # 7 VFs on vmnic3


def cluster_intent(prefix: str, nodes: int, vlan: int, pf: str = PF0, **overrides) -> ClusterIntent:
    """A cluster intent on the simulator's inventory, nodes spread over the hosts (pf=None: no SR-IOV)."""
    marker = f"cluster:{prefix}"
    node_list = tuple(
        NodeIntent(
            name=f"{prefix}-n{i}",
            marker=node_marker(marker, f"{prefix}-n{i}"),
            host=HOST_NAMES[i % HOSTS],
            cpus=2,
            memory_mb=1024,
            sriov_pfs=(pf,) if pf else (),
            latency_high=True,
        )
        for i in range(nodes)
    )
    values = {
        "datacenter": "DC0",
        "compute_cluster": "DC0_C0",
        "template": "hpc-template",
        "dvs_name": f"{prefix}-dvs",
        "dvs_marker": f"dvs:{prefix}",
        "uplink_pnic": "vmnic2",
        "portgroup": f"{prefix}-pg",
        "portgroup_marker": f"segment:{prefix}",
        "vlan": vlan,
        "hosts": HOST_NAMES,
        "nodes": node_list,
        "marker": marker,
    }
    values.update(overrides)
    return ClusterIntent(**values)


@pytest.fixture
def reconcile_held(monkeypatch):
    """Approval queues nothing here: this test hands the task to its own, killable workers."""
    from tenants import realizers
    from tenants.choices import SiteKind

    monkeypatch.setattr(realizers.get(SiteKind.VSPHERE), "queue", lambda cluster_id: None)
