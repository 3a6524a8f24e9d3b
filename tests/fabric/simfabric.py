"""A real simulated InfiniBand fabric for tests and benchmarks: ibsim, OpenSM, infiniband-diags.

ibsim simulates switches and HCAs from a topology file; libumad2sim.so, preloaded, connects OpenSM and
the diagnostic tools to it instead of /dev/infiniband. Every instance has its own socket name
(IBSIM_SOCKNAME), work directory, OpenSM cache and log, so test processes run side by side. An SR-IOV
VF is modelled as a one-port HCA whose port GUID is the VF's. Processes are started in their own
session and killed by pid in `stop()` (context manager and fixtures call it even on failure), and die
with the test process if it is killed first (PR_SET_PDEATHSIG). OpenSM whose ibsim is gone ignores
SIGTERM (it keeps retrying the socket), hence SIGKILL after 5 s.

    with SimFabric(tmp, {"node1": None, "vm1-vf0": "0x0002c90300abcd01"}) as fab:
        fab.guids["node1"]; fab.tables(); fab.agent_pass(url, "ib0", secret)
"""

from __future__ import annotations

import contextlib
import ctypes
import itertools
import os
import re
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "agent"))  # the checkout's agent, not an installed copy

from enclave_agent.fabric.agent import FabricAgent, FabricClient, one_pass  # noqa: E402
from enclave_agent.fabric.diags import Diags  # noqa: E402
from enclave_agent.fabric.opensm import OpenSM  # noqa: E402

UMAD2SIM = "/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so"
NAME_RE = re.compile(r"[a-z0-9][a-z0-9_-]{0,40}")
GUID_BASE = 0x0002C90300000000
PER_LEAF = 24  # HCAs per leaf switch (36-port leaves, like the real thing, minus uplinks)
_counter = itertools.count()
PR_SET_PDEATHSIG = 1
ROGUE_WRITE = """
import ctypes, sys
lib = ctypes.CDLL("libibmad.so.5")
lib.mad_rpc_open_port.restype = ctypes.c_void_p
lib.smp_set_via.restype = ctypes.c_void_p
lib.smp_set_via.argtypes = [ctypes.c_void_p] * 2 + [ctypes.c_uint] * 3 + [ctypes.c_void_p]
port = lib.mad_rpc_open_port(None, 0, (ctypes.c_int * 3)(0x01, 0x81, 0x03), 3)
portid = ctypes.create_string_buffer(256)
ctypes.c_int.from_buffer(portid).value = int(sys.argv[1])
block = b"".join(int(e, 16).to_bytes(2, "big") for e in sys.argv[2:]).ljust(64, b"\\0")
data = ctypes.create_string_buffer(block, 64)
sys.exit(0 if lib.smp_set_via(data, portid, 0x16, 1 << 16, 0, ctypes.c_void_p(port)) else 1)
"""


class SimFabricError(RuntimeError):
    """The simulated fabric did not come up."""


def available() -> str | None:
    """None when ibsim, OpenSM and the diags are installed; else why not (for a skip reason)."""
    for tool in ("ibsim", "opensm", "ibnetdiscover", "smpquery"):
        if not any((Path(d) / tool).exists() for d in ("/usr/bin", "/usr/sbin")):
            return f"{tool} is not installed (deps/apt.txt: opensm, ibsim-utils, infiniband-diags)"
    return None if Path(UMAD2SIM).exists() else f"{UMAD2SIM} is missing (libumad2sim0)"


def topology(ports: dict[str, str], sm_host: str = "smhost") -> str:
    """ibsim's topology text: a root switch, leaf switches, one single-port HCA per named port."""
    names = [sm_host, *ports]
    leaves = [names[i : i + PER_LEAF] for i in range(0, len(names), PER_LEAF)]
    out = [f"switchguid=0x{GUID_BASE + 0xF0000000:016x}\n", f'Switch {max(len(leaves), 2)} "root"\n']
    out += [f'[{n + 1}] "leaf{n}"[{PER_LEAF + 1}]\n' for n in range(len(leaves))]
    for n, members in enumerate(leaves):
        out.append(f'\nswitchguid=0x{GUID_BASE + 0xF0000000 + n + 1:016x}\nSwitch {PER_LEAF + 1} "leaf{n}"\n')
        out += [f'[{i + 1}] "{name}"[1]\n' for i, name in enumerate(members)]
        out.append(f'[{PER_LEAF + 1}] "root"[{n + 1}]\n')
    guids = {sm_host: f"0x{GUID_BASE + 1:016x}", **ports}
    for n, members in enumerate(leaves):
        for i, name in enumerate(members):
            # ibsim gives an HCA's port 1 the node GUID + 1.
            out.append(f'\ncaguid=0x{int(guids[name], 16) - 1:016x}\nHca 1 "{name}"\n[1] "leaf{n}"[{i + 1}]\n')
    return "".join(out)


class SimFabric:
    """ibsim + OpenSM in a work directory; `tables()` reads every CA port's P_Key table."""

    def __init__(self, workdir: Path, ports: dict[str, str | None], options: str = "", sweep: int = 10):
        self.dir = Path(workdir)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.guids: dict[str, str] = {}
        for n, (name, guid) in enumerate(ports.items()):
            if not NAME_RE.fullmatch(name) or name == "smhost":
                raise ValueError(f"bad port name {name!r}")
            self.guids[name] = guid or f"0x{GUID_BASE + 0x100 * (n + 1) + 1:016x}"
        self.sm_guid = f"0x{GUID_BASE + 1:016x}"
        self.partitions, self.options, self.log = (
            self.dir / "partitions.conf",
            self.dir / "opensm.conf",
            self.dir / "opensm.log",
        )
        self.pidfile, self.extra_options, self.sweep = self.dir / "opensm.pid", options, sweep
        self.env = {  # the tools run on the SM's host, as the fabric agent does
            "LD_PRELOAD": UMAD2SIM,
            "IBSIM_SOCKNAME": f"enclave{os.getpid()}x{next(_counter)}x{secrets.token_hex(3)}",
            "SIM_HOST": "smhost",
        }
        self.ibsim: subprocess.Popen | None = None
        self.opensm: subprocess.Popen | None = None
        self.others: list[subprocess.Popen] = []  # SMs started by start_other_sm

    def __enter__(self) -> SimFabric:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def start(self) -> None:
        """Start ibsim, then OpenSM; return once OpenSM's first sweep has brought the subnet up."""
        try:
            self.start_ibsim()
            self.start_opensm()
        except BaseException:
            self.stop()
            raise

    def start_ibsim(self) -> None:
        """ibsim on this instance's socket, sized for the topology."""
        (self.dir / "net").write_text(topology(self.guids))
        size = len(self.guids) + 16
        argv = [
            "ibsim",
            "-s",
            "-n",
            "-N",
            str(size + size // PER_LEAF + 64),
            "-S",
            str(size // PER_LEAF + 8),
            "-P",
            str(size * 30),
        ]
        self.ibsim = self._spawn([*argv, str(self.dir / "net")], self.dir / "ibsim.out", preload=False)
        self._wait(lambda: "simulator ready" in (self.dir / "ibsim.out").read_text(), 30, "ibsim")

    def start_opensm(self) -> None:
        """OpenSM on the SM host's port, with this instance's options file, partitions.conf and log."""
        cache = self.dir / "cache"
        cache.mkdir(exist_ok=True)
        self.options.write_text(
            f"partition_config_file {self.partitions}\nlog_file {self.log}\nsweep_interval {self.sweep}\n"
            f"daemon FALSE\nlog_flags 0x03\nforce_log_flush TRUE\n{self.extra_options}"
        )
        before = self.log.read_text(errors="replace").count("SUBNET UP") if self.log.exists() else 0
        env = {"SIM_HOST": "smhost", "OSM_CACHE_DIR": str(cache), "OSM_TMP_DIR": str(self.dir)}
        self.opensm = self._spawn(["opensm", "-F", str(self.options)], self.dir / "opensm.out", env=env)
        self.pidfile.write_text(f"{self.opensm.pid}\n")
        up = lambda: self.log.exists() and self.log.read_text(errors="replace").count("SUBNET UP") > before  # noqa: E731
        self._wait(up, 120, "OpenSM's first sweep")

    def _spawn(self, argv: list[str], out: Path, env: dict | None = None, preload: bool = True) -> subprocess.Popen:
        full = {
            **os.environ,
            **(self.env if preload else {"IBSIM_SOCKNAME": self.env["IBSIM_SOCKNAME"]}),
            **(env or {}),
        }
        with open(out, "w") as fh:
            return subprocess.Popen(  # noqa: S603 - fixed argv
                argv, stdout=fh, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=full, cwd=self.dir,
                start_new_session=True, preexec_fn=_die_with_parent,
            )  # fmt: skip

    def _wait(self, ready, timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        while not ready():
            for proc in (self.ibsim, self.opensm):
                if proc is not None and proc.poll() is not None:
                    raise SimFabricError(f"{what}: {proc.args[0]} exited {proc.returncode}")
            if time.monotonic() > deadline:
                raise SimFabricError(f"{what} not ready after {timeout:.0f}s")
            time.sleep(0.1)

    def start_other_sm(self, name: str, priority: int) -> None:
        """A second OpenSM on a named port (someone running an SM on their node), stopped with the fabric."""
        work = self.dir / f"sm-{name}"
        work.mkdir(exist_ok=True)
        options = work / "opensm.conf"
        options.write_text(f"log_file {work}/opensm.log\nsm_priority {priority}\nforce_log_flush TRUE\n")
        env = {"SIM_HOST": name, "OSM_CACHE_DIR": str(work), "OSM_TMP_DIR": str(work)}
        self.others.append(self._spawn(["opensm", "-F", str(options)], work / "opensm.out", env=env))
        self._wait(lambda: self.sm_state(work / "opensm.log") in ("STANDBY", "MASTER"), 60, f"the SM on {name}")

    def sm_state(self, log: Path | None = None) -> str | None:
        """The last state an OpenSM logged entering (MASTER, STANDBY...): this instance's by default."""
        try:
            found = re.findall(r"Entering (\w+) state", (log or self.log).read_text(errors="replace"))
        except OSError:
            return None
        return found[-1] if found else None

    def stop_opensm(self) -> None:
        """Stop OpenSM (the fabric keeps what it programmed)."""
        _kill(self.opensm)
        self.opensm = None

    def restart_opensm(self) -> None:
        """Stop OpenSM and start it again with the same files."""
        self.stop_opensm()
        self.start_opensm()

    def power_cycle(self) -> None:
        """Restart ibsim (every port's table back to the default 0xffff) and OpenSM."""
        self.stop()
        self.start()

    def stop(self) -> None:
        """Kill OpenSM and ibsim (idempotent)."""
        for other in self.others:
            _kill(other)
        self.others = []
        _kill(self.opensm)
        _kill(self.ibsim)
        self.opensm = self.ibsim = None

    def diags(self) -> Diags:
        """infiniband-diags connected to this fabric."""
        return Diags(env=self.env)

    def tables(self) -> dict[str, list[int]]:
        """Every CA port's P_Key table (non-zero entries), by port GUID: `smpquery pkeys` per port, a
        different reader than the agent's (smp.py), so tests do not check the agent with its own eyes."""
        diags = self.diags()
        return {p.guid: diags.pkeys(p.lid, p.port) for p in diags.ca_ports()}

    def table(self, name: str) -> set[int]:
        """One named port's table entries."""
        diags = self.diags()
        port = next(p for p in diags.ca_ports() if p.guid == self.guids[name])
        return set(diags.pkeys(port.lid, port.port))

    def sm(self, state_dir: Path, restart: bool = False) -> OpenSM:
        """The fabric agent's OpenSM realizer for this instance (allowed to restart OpenSM if `restart`)."""
        hook = self.restart_opensm if restart else None
        return OpenSM(self.partitions, self.options, Path(state_dir), self.pidfile, self.diags(), hook)

    def agent(self, state_dir: Path, settle: float = 30.0, restart: bool = False, **kw) -> FabricAgent:
        """A fabric agent driving this instance's OpenSM."""
        return FabricAgent(self.sm(state_dir, restart), Path(state_dir), settle=settle, **kw)

    def rogue_write(self, name: str, entries: list[int]) -> None:
        """Write a port's P_Key table block 0 with an SMP Set from a plain fabric client, not the SM:
        what root on a node can do where the SM set no M_Key (ibsim does not check M_Key at all)."""
        lid = next(p.lid for p in self.diags().ca_ports() if p.guid == self.guids[name])
        argv = [sys.executable, "-I", "-c", ROGUE_WRITE, str(lid), *(f"0x{e:04x}" for e in entries)]
        subprocess.run(argv, env={**os.environ, **self.env}, check=True, capture_output=True, timeout=60)  # noqa: S603

    def agent_pass(self, url: str, fabric: str, credential: str, state_dir: Path | None = None) -> dict:
        """One agent pass against a portal (GET desired, apply, POST report); returns the report."""
        agent = self.agent(state_dir or self.dir / "agent")
        client = FabricClient(url, fabric, credential)
        try:
            return one_pass(agent, client, None)[0]
        finally:
            client.close()


def _die_with_parent() -> None:
    """In the child: SIGKILL when the test process dies, even killed (a timeout) before its teardown ran."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def _kill(proc: subprocess.Popen | None) -> None:
    if proc is None or proc.poll() is not None:
        return
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


def main() -> int:
    """Run a simulated fabric in the foreground (scripts/ibsim.sh, `make run` demos) until SIGTERM/SIGINT."""
    import argparse
    import json

    ap = argparse.ArgumentParser(prog="ibsim.sh start")
    ap.add_argument("--workdir", type=Path, required=True)
    ap.add_argument("--ports", type=int, default=8, help="HCA ports besides the SM's host")
    args = ap.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    with SimFabric(args.workdir, {f"hca{n}": None for n in range(args.ports)}) as fab:
        ready = {"env": fab.env, "partitions": str(fab.partitions), "options": str(fab.options),
                 "pidfile": str(fab.pidfile), "guids": fab.guids}  # fmt: skip
        (args.workdir / "ready.json").write_text(json.dumps(ready, indent=1))
        print(f"fabric up: {args.workdir}/ready.json", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            signal.pause()
    return 0


if __name__ == "__main__":
    sys.exit(main())
