"""Benchmark: the InfiniBand port lookups a fabric sync and a node's report make, at N nodes with 2 ports each.

Run: source scripts/env.sh && python manage.py migrate && python benchmarks/ib_port_lookups.py [--nodes 10000]

Against the project's own database, inside a transaction that is rolled back (nothing stays): N nodes
with two port GUIDs each, then, --rounds times each, with a baseline from the same run:
- which of all N x 2 GUIDs are VFs' (fabrics.desired.vf_guids_among: one array parameter), against the
  same question asked with an IN list;
- which of them two nodes report (agents.ib_ports.reported_twice, JIT off), against JIT on;
- which other nodes report one node's ports (agents.ib_ports.also_reported, on a report), no baseline:
  it reads every node; a GIN index on `ib_ports` was tried and the planner did not use it at 10,000.
Prints the median and the range in milliseconds.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "agent")]


def timed(call, rounds: int) -> list[float]:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    return times


def seed(nodes: int):
    from django.db import connection

    from agents.models import Node, NodePool

    pool = NodePool.objects.create(name="bench-ib-pool")
    ports = lambda i: [{"device": "mlx5_0", "port": p, "guid": f"0x0002c903{p - 1}{i:07x}", "netdev": None}  # noqa: E731
                       for p in (1, 2)]  # fmt: skip
    rows = [Node(name=f"bench-ib-{i}", pool=pool, ib_ports=ports(i)) for i in range(nodes)]
    Node.objects.bulk_create(rows, batch_size=2000)
    with connection.cursor() as cursor:  # statistics that know the rows, as on a site that has them
        cursor.execute("ANALYZE agents_node")
    return {port["guid"] for node in rows for port in node.ib_ports}, Node.objects.get(name="bench-ib-0")


def cases(guids: set[str], node) -> list[tuple[str, object]]:
    from django.db import connection

    from agents import ib_ports
    from fabrics import desired
    from vsphere.models import VFAssignment

    def with_jit():
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL jit = on")
            cursor.execute(ib_ports.REPORTED_TWICE, [sorted(guids)])

    return [
        ("VF GUIDs among all ports, one array (vf_guids_among)", lambda: desired.vf_guids_among(guids)),
        ("  baseline: an IN list", lambda: list(VFAssignment.objects.filter(port_guid__in=guids).values_list("pk"))),
        ("ports two nodes report, JIT off (reported_twice)", lambda: ib_ports.reported_twice(guids)),
        ("  baseline: JIT on", with_jit),
        ("one node's ports elsewhere (also_reported)", lambda: ib_ports.also_reported(node)),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
    import django

    django.setup()
    from django.db import transaction

    with transaction.atomic():
        guids, node = seed(args.nodes)
        with transaction.atomic():  # the SET LOCALs above end with it
            print(f"{args.nodes:,} nodes, {len(guids):,} port GUIDs, {args.rounds} rounds (ms: median, min-max)")
            for label, call in cases(guids, node):
                times = timed(call, args.rounds)
                print(f"| {label} | {statistics.median(times):.1f} | {min(times):.1f}-{max(times):.1f} |")
        transaction.set_rollback(True)


if __name__ == "__main__":
    main()
