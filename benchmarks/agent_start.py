"""Start-up of the agent's per-login and per-task calls (`enter`, `pkey`) against what every call loaded before.

The PAM line starts `enclave-agent enter --pam` for every login and the SPANK plugin `enter --pid ... --pkey`
for every task of every job step, so their start-up is paid per login and per task. Measured here, in the
same run: the interpreter alone (the floor), the imports every subcommand paid until the command line
imported per subcommand (baseline: the reconcile loop, the portal client, the session code), and the real
`pkey` command on a root-owned state directory (the imports of `enter` and `pkey` now, and the work).
Usage: .venv/bin/python benchmarks/agent_start.py [--runs 40]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from enclave_agent.state import cgnat_for, table_for, vxlan_name

PY = sys.executable
AGENT = str(Path(PY).with_name("enclave-agent"))
BEFORE = "import argparse, logging; import enclave_agent.agent, enclave_agent.client, enclave_agent.session"
TENANT = 70001
STATE = {
    "generation": 1,
    "node": {"name": "n1", "address": "10.77.0.1", "interfaces": [{"name": "eth0", "address": "10.77.0.1/24"}]},
    "tenants": [{"id": TENANT, "vrf": {"name": f"vrf{TENANT}", "table": table_for(TENANT)}, "vni": TENANT,
                 "cgnat": cgnat_for(TENANT), "uids": [65534], "pkey": "0x0012",
                 "vxlans": [{"device": vxlan_name("eth0", TENANT), "underlay": "eth0", "dstport": 4789,
                             "address": "10.77.0.1/24", "group": "239.1.1.77"}]}],
}  # fmt: skip


def pkey_argv(state: Path) -> list[str]:
    """The real `pkey` call of a task of tenant A's user."""
    return [AGENT, "--state-dir", str(state), "pkey", "--uid", "65534"]


def measure(argv: list[str], runs: int) -> dict:
    """Median wall time and mean CPU time (user + sys of the child) over runs starts, in ms."""
    walls, cpu = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(argv, capture_output=True, check=False, env={"PATH": os.environ["PATH"]})
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return {"wall_ms": round(statistics.median(walls) * 1000, 1), "cpu_ms": round(statistics.mean(cpu) * 1000, 1)}


def main() -> int:
    """Print one JSON line per case."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=40)
    runs = ap.parse_args().runs
    with tempfile.TemporaryDirectory() as tmp:
        state = Path(tmp, "state")
        state.mkdir(mode=0o700)
        (state / "desired.json").write_text(json.dumps(STATE))
        (state / "status.json").write_text(json.dumps({"tenants": {"70001": {"status": "ready", "errors": []}}}))
        assert subprocess.run(pkey_argv(state), capture_output=True, text=True).stdout == "0x0012\n"
        cases = {
            "interpreter alone (floor)": [PY, "-c", "pass"],
            "baseline: the imports every call paid before": [PY, "-c", BEFORE],
            "enclave-agent pkey (the task hook's imports and work now)": [
                AGENT,
                "--state-dir",
                str(state),
                "pkey",
                "--uid",
                "65534",
            ],  # fmt: skip
        }
        for name, argv in cases.items():
            print(json.dumps({"case": name, "runs": runs, **measure(argv, runs)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
