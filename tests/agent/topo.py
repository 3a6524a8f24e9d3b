"""Real-kernel test topology: two nodes, a router and an outside host in network namespaces."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from enclave_agent.state import cgnat_for, table_for, vxlan_name

PY = sys.executable
# The node-side programs these tests start (the agent, netprobe, the portal double) run with `python -S`:
# under the VRF guest's emulated CPU, `site` (the virtualenv's .pth files and the editable install's
# import hook) cost seconds of every start, and none of them needs more than the standard library and
# the checkout's agent package, which AGENT_BOOT puts on the path (a site installs the agent as a package).
NOSITE = (PY, "-S")
AGENT_BOOT = (
    f"import sys; sys.path.insert(0, {str(Path(__file__).resolve().parents[2] / 'agent')!r}); "
    "from enclave_agent.cli import main; sys.exit(main())"
)
AGENT = (*NOSITE, "-c", AGENT_BOOT)  # `enclave-agent` as an argv prefix
PROBE = str(Path(__file__).with_name("netprobe.py"))
SUBNET = "10.77.0"
OUTSIDE = "198.51.100"
MCAST = "239.1.1.77"
PORT = 4789
ANY = "0.0.0.0"  # noqa: S104 (listeners of the test topology, inside its namespaces)
PORTAL_RULESET = f"""table inet enclave {{
  chain input {{
    type filter hook input priority 0; policy accept;
    ct state established,related accept
    iifname "eth0" ip saddr != {SUBNET}.0/24 tcp dport 22 accept
    iifname "eth0" ip saddr != {SUBNET}.0/24 limit rate 10/second log prefix "enclave drop " drop
    iifname "eth0" ip saddr != {SUBNET}.0/24 drop
  }}
}}
"""  # with a `log` and a `limit` statement, as the portal's compiled rulesets have


def sh(*args: str, check: bool = True, input: str | None = None) -> subprocess.CompletedProcess:
    """Run a command, raising with its stderr when check fails."""
    proc = subprocess.run(args, capture_output=True, text=True, input=input, check=False)
    if check and proc.returncode != 0:
        raise AssertionError(f"{' '.join(args)} -> {proc.returncode}: {proc.stderr}")
    return proc


@dataclass
class Topology:
    """Namespaces named with a unique per-run prefix; always removed by destroy()."""

    prefix: str = field(default_factory=lambda: f"et{uuid.uuid4().hex[:6]}")
    procs: list[subprocess.Popen] = field(default_factory=list)

    def ns(self, name: str) -> str:
        """Full namespace name for a role (n1, n2, rt, out, sw)."""
        return f"{self.prefix}{name}"

    def ex(self, role: str, *args: str, check: bool = True, input: str | None = None):
        """Run a command inside a role's namespace."""
        return sh("ip", "netns", "exec", self.ns(role), *args, check=check, input=input)

    def build(self) -> Topology:
        """Bridge underlay 10.77.0.0/24 (n1 .1, n2 .2, router .254) and an outside host.

        A few `ip -batch` runs instead of one process per command: under the VRF guest's emulated
        CPU every process start costs a fraction of a second."""
        roles = ("sw", "n1", "n2", "rt", "out")
        self.batch(None, [f"netns add {self.ns(role)}" for role in roles])
        wires = (("sw", "pn1", "n1", "eth0"), ("sw", "pn2", "n2", "eth0"), ("sw", "prt", "rt", "eth0"),
                 ("rt", "eth1", "out", "eth0"))  # fmt: skip
        self.batch(None, [f"link add {a_dev}{self.prefix} netns {self.ns(a)} type veth peer name {b_dev} "
                          f"netns {self.ns(b)}" for a, a_dev, b, b_dev in wires])  # fmt: skip
        addrs = {"n1": f"{SUBNET}.1/24", "n2": f"{SUBNET}.2/24", "rt": f"{SUBNET}.254/24", "out": f"{OUTSIDE}.2/24"}
        mine = {role: ["link set lo up"] for role in roles}
        mine["sw"] += ["link add br0 type bridge mcast_snooping 0", "link set br0 up"]
        for a, a_dev, b, b_dev in wires:
            mine[a] += [f"link set {a_dev}{self.prefix} name {a_dev}", f"link set {a_dev} up"]
            mine[b] += [f"addr add {addrs[b]} dev {b_dev}", f"link set {b_dev} up"]
        mine["sw"] += [f"link set p{role} master br0" for role in ("n1", "n2", "rt")]
        mine["rt"] += [f"addr add {OUTSIDE}.1/24 dev eth1"]
        mine["out"] += [f"route add default via {OUTSIDE}.1"]
        for role in ("n1", "n2"):
            mine[role] += [f"route add default via {SUBNET}.254"]
        for role in roles:
            self.batch(role, mine[role])
        self.ex("rt", "sysctl", "-qw", "net.ipv4.ip_forward=1")
        # The kernel sets a link's operational state a moment after both ends are up (linkwatch): tests that
        # compare `ip link` before and after must not start while it is still DOWN.
        for role in ("n1", "n2", "rt", "out"):
            wait_for(lambda r=role: " UP " in sh("ip", "-n", self.ns(r), "-br", "link", "show", "eth0").stdout,
                     f"eth0 of {role} up", timeout=60)  # fmt: skip
        return self

    def batch(self, role: str | None, commands: list[str]) -> None:
        """iproute2 commands in one process, inside a role's namespace (None: this namespace)."""
        where = ["-n", self.ns(role)] if role else []
        sh("ip", *where, "-batch", "-", input="\n".join(commands) + "\n")

    def destroy(self) -> None:
        """Kill helper processes and delete every namespace of this run."""
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
        for role in ("sw", "n1", "n2", "rt", "out"):
            sh("ip", "netns", "del", self.ns(role), check=False)
        for path in Path("/tmp").glob(f"{self.prefix}-*"):  # agents' state dirs of this run
            shutil.rmtree(path, ignore_errors=True)

    # -- processes -------------------------------------------------------------------------

    def spawn(self, role: str, *args: str, **kw) -> subprocess.Popen:
        """Start a long-running process in a namespace (killed by destroy)."""
        proc = subprocess.Popen(
            ["ip", "netns", "exec", self.ns(role), *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            **kw,
        )
        self.procs.append(proc)
        return proc

    def listen(
        self, role: str, port: int, dev: str = "", udp: bool = False, addr: str = ANY, timeout: float = 120
    ) -> subprocess.Popen:
        """A one-shot echo listener, optionally bound to a VRF device; waits until READY."""
        args = [*NOSITE, PROBE, "listen", "--port", str(port), "--addr", addr, "--timeout", str(timeout)]
        args += ["--dev", dev] if dev else []
        args += ["--udp"] if udp else []
        proc = self.spawn(role, *args)
        line = proc.stdout.readline()
        assert line.strip() == "READY", proc.stderr.read() if proc.poll() is not None else line
        return proc

    def connect(self, role: str, host: str, port: int, dev: str = "") -> str:
        """Connect, send a token, return what came back ('' on any failure). socat, not Python: the
        VRF guest's emulated CPU starts an interpreter in seconds; so-bindtodevice = `ip vrf exec`."""
        bind = f",so-bindtodevice={dev}" if dev else ""
        probe = f"printf hi | socat -t3 - TCP:{host}:{port},connect-timeout=3{bind}"
        proc = self.ex(role, "sh", "-c", probe, check=False)
        return proc.stdout.strip() if proc.returncode == 0 else ""


def tenant(tid: int, node_addr: str, uids=()) -> dict:
    """Desired-state entry for one tenant on a node (VRF table and CGNAT from the id)."""
    return {
        "id": tid,
        "vrf": {"name": f"vrf{tid}", "table": table_for(tid)},
        "vni": tid,
        "cgnat": cgnat_for(tid),
        "uids": list(uids),
        "vxlans": [
            {
                "device": vxlan_name("eth0", tid),
                "underlay": "eth0",
                "dstport": PORT,
                "address": f"{node_addr}/24",
                "group": MCAST,
            }
        ],
    }


def desired(node: str, host: int, tenants: list[int], generation: int = 1, uids: dict | None = None) -> dict:
    """A whole desired-state document for node n1 (host 1) or n2 (host 2)."""
    addr = f"{SUBNET}.{host}"
    return {
        "generation": generation,
        "node": {
            "name": node,
            "address": addr,
            "interfaces": [{"name": "eth0", "address": f"{addr}/24", "gateway": f"{SUBNET}.254"}],
        },
        "tenants": [tenant(t, addr, (uids or {}).get(t, ())) for t in tenants],
        "nftables": PORTAL_RULESET,
    }


def agent(topo: Topology, role: str, state: dict, *cmd: str, check: bool = False):
    """Run `enclave-agent apply` (or another subcommand) inside a node namespace."""
    state_dir = f"/tmp/{topo.prefix}-{role}"
    os.makedirs(state_dir, exist_ok=True)
    path = Path(state_dir, "input.json")
    path.write_text(json.dumps(state))
    args = cmd or ("apply", "--file", str(path))
    return topo.ex(role, *AGENT, "--state-dir", state_dir, *args, check=check)


def report(proc: subprocess.CompletedProcess) -> dict:
    """Decode the JSON report printed by `enclave-agent apply`."""
    try:
        return json.loads(proc.stdout)
    except ValueError as exc:
        raise AssertionError(f"no report: {proc.stdout!r} {proc.stderr!r}") from exc


def wait_for(predicate, what: str, timeout: float = 60.0):
    """Poll until predicate() is truthy (a liveness wait, not a timing assertion)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")
