"""Benchmark: 1,000 segment allocations, sequential and 8- and 16-way concurrent, on real PostgreSQL.

Run: source scripts/env.sh && python benchmarks/netpolicy_segments.py [--segments 1000]
Uses its own throwaway database (test_<db>_npbench), created and dropped by the run.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
# It creates and drops its own database, which only the schema owner role may (portal.dbroles).
for _key in ("USER", "PASSWORD"):
    if os.environ.get(f"ENCLAVE_DB_OWNER_{_key}"):
        os.environ[f"ENCLAVE_DB_{_key}"] = os.environ[f"ENCLAVE_DB_OWNER_{_key}"]

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import setup_databases, teardown_databases  # noqa: E402

from audit.context import acting_as, system_actor  # noqa: E402
from netpolicy import allocation, segments  # noqa: E402
from netpolicy.models import Segment  # noqa: E402
from tenants import services  # noqa: E402

TENANTS = 16  # requests of one tenant queue on its quota row; 16 tenants let 16 threads run


def prepare(count: int):
    """An admin, 16 tenants with room for the segments, and large VLAN/VNI/IPv4 pools."""
    admin = get_user_model().objects.create_user("bench-admin", is_staff=True)
    tenants = [services.create_tenant(f"bench-{i}", f"Bench {i}") for i in range(TENANTS)]
    for tenant in tenants:
        services.update_quota(tenant.quota, max_segments=count)
    allocation.create_pool(admin, {"name": "vlans", "kind": "vlan", "first": 1, "last": 4094})
    allocation.create_pool(admin, {"name": "vnis", "kind": "vni", "first": 1, "last": 2**24 - 1})
    allocation.create_pool(admin, {"name": "v4", "kind": "ipv4", "cidr": "10.0.0.0/8", "default_prefix_length": 26})
    return admin, tenants


def allocate(admin, tenants, indices, kind, errors):
    """Allocate one segment per index, round-robin over the tenants."""
    with acting_as(system_actor("benchmark")):
        for i in indices:
            try:
                segments.create_segment(tenants[i % len(tenants)], admin, {"name": f"{kind}-{i}", "kind": kind})
            except Exception as exc:  # noqa: BLE001 - counted and reported
                errors.append(repr(exc))
    connection.close()


def run(admin, tenants, count: int, workers: int, kind: str) -> tuple[float, list[str]]:
    """Seconds to allocate `count` segments with `workers` threads."""
    errors: list[str] = []
    chunks = [range(w, count, workers) for w in range(workers)]
    threads = [threading.Thread(target=allocate, args=(admin, tenants, c, kind, errors)) for c in chunks]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - start, errors


def duplicates(column: str) -> int:
    """Live segments sharing an id or subnet with another one (must be 0)."""
    values = list(Segment.objects.exclude(**{f"{column}__isnull": True}).values_list(column, flat=True))
    return len(values) - len(set(values))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--segments", type=int, default=1000)
    args = parser.parse_args()
    db = settings.DATABASES["default"]
    # Its own database, so a concurrently running test suite is never disturbed.
    db["TEST"]["NAME"] = f"test_{db['NAME']}_npbench"
    old = setup_databases(verbosity=0, interactive=False)
    try:
        with acting_as(system_actor("benchmark")):
            admin, tenants = prepare(args.segments)
        n = args.segments
        rows, dup, errors = [], {}, []
        for label, workers, kind in (
            ("sequential (VLAN), baseline", 1, "vlan"),
            ("8-way concurrent (overlay)", 8, "overlay"),
            ("16-way concurrent (overlay)", 16, "overlay"),
        ):
            Segment.objects.all().delete()  # every run starts from empty pools
            wall, errs = run(admin, tenants, n, workers, kind)
            column = "vlan_id" if kind == "vlan" else "vni"
            dup[label] = {c: duplicates(c) for c in (column, "subnet")}
            rows.append((label, wall, errs, Segment.objects.count()))
            errors += errs
        seq = rows[0][1]
        print("| allocation | segments | wall s | per segment ms | throughput / sequential | errors |")
        print("|---|---:|---:|---:|---:|---:|")
        for label, wall, errs, count in rows:
            print(f"| {label} | {count} | {wall:.2f} | {wall / n * 1000:.1f} | {seq / wall:.2f} | {len(errs)} |")
        print(f"duplicates: {dup}")
        for message in errors[:5]:
            print("error:", message)
    finally:
        connection.close()
        teardown_databases(old, verbosity=0)


if __name__ == "__main__":
    main()
