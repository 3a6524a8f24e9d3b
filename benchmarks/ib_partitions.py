"""Benchmark: tenant partitions on a simulated InfiniBand fabric (ibsim + OpenSM), through the fabric agent.

Run: PYTHONPATH=agent python benchmarks/ib_partitions.py [--sizes 10,100,1000] [--ports 4] [--sweeps 3]

For each size N: a fabric with 4 x (N + 1) tenant HCA ports (24 per leaf switch, one root switch);
the agent applies N partitions (4 full members each); then it measures
  - OpenSM's heavy sweep: SIGHUP with partitions.conf unchanged, until the log's next "SUBNET UP";
  - one tenant added (the portal approved it): from the agent's apply of the new document until the
    new tenant's 4 ports hold its key as full member (read from the ports, polled every 50 ms);
  - a whole agent pass for a one-tenant change (the same tenant removed again): apply, wait for the
    changed ports, read every port's table, check isolation, build the report;
  - reading every port's table (the report's readback).
The 10-partition row is the baseline of the same run. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "agent")]

from tests.fabric.simfabric import SimFabric  # noqa: E402

GUID_BASE = 0x0002C90400000000


def guid(n: int) -> str:
    """The n-th tenant port's GUID (spaced, so ibsim's node GUID = port GUID - 1 never collides)."""
    return f"0x{GUID_BASE + 0x10 * (n + 1) + 1:016x}"


def document(generation: int, tenants: int, per: int) -> dict:
    """Tenants 0..tenants-1, tenant t's key 0x0100 + t, its ports t*per .. t*per+per-1."""
    parts = [{"pkey": f"0x{0x100 + t:04x}", "ipoib": True, "mtu": 4, "full": [guid(t * per + i) for i in range(per)]}
             for t in range(tenants)]  # fmt: skip
    return {"schema": 1, "generation": generation, "fabric": "ib0", "kind": "opensm", "shared": {"full": []},
            "partitions": parts}  # fmt: skip


def heavy_sweep(fabric: SimFabric, sm) -> float:
    """Seconds from SIGHUP to OpenSM's next SUBNET UP."""
    before = fabric.log.read_text(errors="replace").count("SUBNET UP")
    start = time.monotonic()
    sm.reload()
    while fabric.log.read_text(errors="replace").count("SUBNET UP") <= before:
        time.sleep(0.02)
    return time.monotonic() - start


def until_programmed(sm, ports: list[str], key: int) -> float:
    """Seconds until every port in `ports` holds key as full member (the apply already happened)."""
    start = time.monotonic()
    while True:
        tables = sm.observe(set(ports))
        if all(key | 0x8000 in tables.get(p, ()) for p in ports):
            return time.monotonic() - start
        time.sleep(0.05)


def measure(size: int, per: int, sweeps: int) -> dict:
    """One row of the table for `size` partitions."""
    work = Path(tempfile.mkdtemp(prefix=f"ib-bench-{size}-"))
    ports = {f"p{n}": guid(n) for n in range((size + 1) * per)}
    start = time.monotonic()
    with SimFabric(work, ports) as fabric:
        row = {"partitions": size, "ports": len(ports) + 1, "fabric up s": time.monotonic() - start}
        agent = fabric.agent(work / "agent", settle=600)
        start = time.monotonic()
        report = agent.run_pass(document(1, size, per))
        row["initial pass s"] = time.monotonic() - start
        assert report["errors"] == [], report["errors"][:3]
        row["heavy sweep s"] = statistics.median(heavy_sweep(fabric, agent.sm) for _ in range(sweeps))
        new = [guid(size * per + i) for i in range(per)]
        start = time.monotonic()
        agent.sm.apply(document(2, size + 1, per))
        applied = time.monotonic() - start
        row["one tenant: programmed s"] = applied + until_programmed(agent.sm, new, 0x100 + size)
        agent.applied = document(2, size + 1, per)
        start = time.monotonic()
        report = agent.run_pass(document(3, size, per))
        row["one tenant: agent pass s"] = time.monotonic() - start
        assert report["errors"] == [], report["errors"][:3]
        start = time.monotonic()
        agent.sm.observe()
        row["read all tables s"] = time.monotonic() - start
    return row


def main() -> int:
    """Measure every size, print the table."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="10,100,1000")
    ap.add_argument("--ports", type=int, default=4, help="full-member ports per tenant partition")
    ap.add_argument("--sweeps", type=int, default=3)
    args = ap.parse_args()
    rows = []
    for size in (int(s) for s in args.sizes.split(",")):
        rows.append(measure(size, args.ports, args.sweeps))
        print(rows[-1], file=sys.stderr, flush=True)
    keys = list(rows[0])
    print(f"machine: {os.cpu_count()} CPUs, {os.uname().release}; ports per tenant {args.ports}")
    print("| " + " | ".join(keys) + " |")
    print("|" + "---|" * len(keys))
    for row in rows:
        print("| " + " | ".join(f"{v:.2f}" if isinstance(v, float) else str(v) for v in row.values()) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
