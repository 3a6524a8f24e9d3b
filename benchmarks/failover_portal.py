"""Benchmark: what the portal's own clients see while the PostgreSQL leader or the Redis master dies.

Run: source scripts/env.sh && python benchmarks/failover_portal.py [--runs 3] [--only pg|redis]

benchmarks/failover.py times the engines with a bare client; this times them through the portal. Each run
starts a fresh Patroni cluster (tests/ha/patroni.py: 3 members, synchronous_mode, 3 etcd, ttl 6 s) and,
for Redis, 3 Redis with 3 Sentinels (tests/ha/sentinel.py, down-after 1 s); migrates the portal onto
the cluster; seeds the fault tests' site (tests/ha/load.py: four endorsed requests of one tenant, three
enrolled nodes); starts one gunicorn web process and one Celery worker on them; runs the fault tests'
load (each round: the next approval as a site admin, a site-wide rule, one poll per node; a failed
request is retried the next round, 0.1 s later) and SIGKILLs the leader or master once two approvals
are acknowledged. Per run and overall: the window of failed requests (first to last), the time from the
kill to the first approval acknowledged after it, the writes redone (a retry that found its write
committed) and what the fault tests' checks still find wrong once the sweeps have run (lost).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import django
import redis

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
# Its own Redis database on the local server (the PostgreSQL run's broker): never `make run`'s.
os.environ.setdefault("ENCLAVE_EMAIL_BACKEND", "django.core.mail.backends.locmem.EmailBackend")  # no mail printed
os.environ["ENCLAVE_REDIS_URL"] = f"redis://127.0.0.1:{os.environ.get('ENCLAVE_REDIS_PORT', '63799')}/14"
django.setup()

from django.db import connections  # noqa: E402

from audit.context import acting_as, system_actor  # noqa: E402
from benchmarks.failover import percentile  # noqa: E402
from tests.conftest import World, new_user  # noqa: E402
from tests.ha.load import Load, Portal, seed, settle, using  # noqa: E402
from tests.ha.patroni import PatroniCluster, portal_env  # noqa: E402
from tests.ha.sentinel import SentinelCluster, wait_for  # noqa: E402

LABELS = {"pg": "PostgreSQL leader SIGKILL (Patroni)", "redis": "Redis master SIGKILL (Sentinel)"}


def run(fault: str, tmp: Path) -> dict:
    """One fresh cluster (and Sentinels), the portal on it, the load, one kill; this run's figures."""
    redis.Redis.from_url(os.environ["ENCLAVE_REDIS_URL"]).flushdb()  # no task an earlier run left
    patroni, sentinels = PatroniCluster().start(), None
    try:
        env = portal_env(patroni, ROOT)
        extra = {k: v for k, v in env.items() if k.startswith("ENCLAVE_DB")}
        if fault == "redis":
            (tmp / "sentinel").mkdir()
            sentinels = SentinelCluster(tmp / "sentinel").start()
            extra |= {"ENCLAVE_REDIS_SENTINELS": ",".join(sentinels.addresses),
                      "ENCLAVE_REDIS_URL": f"redis://127.0.0.1:{sentinels.master()}/0"}  # fmt: skip
        kill = patroni.kill_leader if sentinels is None else sentinels.kill_master
        return _measure(Portal(tmp, extra), env, kill)
    finally:
        if sentinels is not None:
            sentinels.stop()
        patroni.stop()


def _measure(portal: Portal, env: dict, kill) -> dict:
    """Seed, load, kill after two approvals, settle; the figures from the load's record."""
    try:
        with using(env), acting_as(system_actor("benchmark")):
            site = seed(World(new_user))
            if not portal.wait_ready():
                raise RuntimeError(portal.tail())
            load = Load(portal.base, site)
            load.start()
            wait_for(lambda: len(load.record.approved) >= 2 or load.error, 120)
            killed_at = time.monotonic() - load.started_at
            kill()
            wait_for(lambda: len(load.record.approved) == len(site.clusters) or load.error, 180)
            time.sleep(2)  # a few more rounds of rules and polls on the new leader or master
            record = load.stop()
            if load.error:
                raise RuntimeError(f"the load failed: {load.error}\n{portal.tail()}")
            connections.close_all()  # this thread's connection may have gone with the old leader
            problems = settle(portal, load, record)
    finally:
        portal.stop()
    failed = [t for t, _what in record.failures]
    after = [t - killed_at for t in record.approved_at if t > killed_at]
    return {"window": (failed[-1] - failed[0]) if failed else 0.0, "failed": len(failed),
            "first_approval": after[0] if after else float("nan"), "redone": record.redone,
            "lost": len(problems)}  # fmt: skip


def _summary(name: str, runs: list[dict]) -> str:
    windows, firsts = [r["window"] for r in runs], [r["first_approval"] for r in runs]
    return (f"| {name} | {len(runs)} | {statistics.median(windows):.2f} | {percentile(windows, 0.95):.2f} | "
            f"{max(windows):.2f} | {sum(r['failed'] for r in runs)} | {statistics.median(firsts):.2f} | "
            f"{max(firsts):.2f} | {sum(r['redone'] for r in runs)} | {sum(r['lost'] for r in runs)} |")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--only", choices=list(LABELS))
    args = ap.parse_args()
    results: dict[str, list[dict]] = {}
    for fault in LABELS:
        if args.only and args.only != fault:
            continue
        results[fault] = []
        for i in range(args.runs):
            figures = run(fault, Path(tempfile.mkdtemp(prefix=f"enclave-portal-{fault}-")))
            print(f"{fault} run {i + 1}: " + ", ".join(f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}"
                                                        for k, v in figures.items()), flush=True)  # fmt: skip
            results[fault].append(figures)
    print(
        "| fault | runs | failed window p50 s | p95 s | max s | failed requests | first approval p50 s | max s "
        "| redone | lost |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for fault, runs in results.items():
        print(_summary(LABELS[fault], runs))


if __name__ == "__main__":
    main()
