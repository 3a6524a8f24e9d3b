"""Benchmark: what a client sees while the PostgreSQL leader (Patroni) or the Redis master (Sentinel) dies.

Run: source scripts/env.sh && python benchmarks/failover.py [--runs 3] [--only pg|redis] [--production]

Each run starts a fresh cluster with the test harness (tests/ha/: Patroni 2 members, synchronous_mode,
ttl 6 s, loop_wait 1 s, 1 etcd; Redis 3 servers + 3 Sentinels, down-after 1 s; --production: the ha
profile's ttl 20 s, loop_wait 5 s, retry_timeout 5 s and down-after 5 s), drives one client
that writes every 20 ms the way the portal connects (libpq multi-host target_session_attrs=read-write;
redis-py through the Sentinels), SIGKILLs the leader/master mid-way and reports per run and overall:
the window of failed requests (first to last failure, seconds), the time from the kill to the first
successful write, the writes redone (a retry that found its write already committed: the commit's
answer was lost with the primary) and the acknowledged writes missing afterwards.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import psycopg
import redis
from redis.sentinel import Sentinel

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.ha.patroni import PASSWORD, PatroniCluster  # noqa: E402
from tests.ha.sentinel import MASTER, SentinelCluster, wait_for  # noqa: E402

PERIOD = 0.02  # seconds between a client's writes
AFTER = 5.0  # seconds of writes after the first success following the kill


class Client:
    """One client's log: (time, ok) per attempt, acknowledged keys, writes redone."""

    def __init__(self):
        self.attempts, self.acked, self.redone = [], [], 0

    def run(self, write, until) -> None:
        n = 0
        while not until():
            started = time.monotonic()
            try:
                self.redone += write(n)
                self.acked.append(n)
                self.attempts.append((started, True))
                n += 1
            except (psycopg.Error, redis.RedisError, OSError):
                self.attempts.append((started, False))
            time.sleep(PERIOD)

    def figures(self, killed_at: float) -> dict:
        failed = [t for t, ok in self.attempts if not ok]
        first_ok = next(t for t, ok in self.attempts if ok and t > killed_at)
        return {"window": (failed[-1] - failed[0]) if failed else 0.0, "first_success": first_ok - killed_at}


def _drive(client: Client, write, kill) -> float:
    """Write for a second, kill, write until AFTER seconds past the first success after the kill."""
    state = {"killed": None, "until": time.monotonic() + 1.0}

    def until() -> bool:
        now = time.monotonic()
        if state["killed"] is None and now >= state["until"]:
            state["killed"] = now
            kill()
            state["until"] = None
        recovered = any(ok and t > (state["killed"] or now) for t, ok in client.attempts[-3:])
        if state["killed"] is not None and state["until"] is None and recovered:
            state["until"] = now + AFTER
        return state["until"] is not None and state["killed"] is not None and now >= state["until"]

    client.run(write, until)
    return state["killed"]


PRODUCTION = {"pg": {"ttl": 20, "loop_wait": 5, "retry_timeout": 5}, "redis": {"down_after_ms": 5000}}
TEST = {"pg": {}, "redis": {}}  # the harness's defaults: ttl 6 s, loop_wait 1 s, retry 2 s; down-after 1 s


def pg_run(timeouts: dict) -> dict:
    cluster = PatroniCluster(**timeouts).start()
    try:
        hosts = ",".join("127.0.0.1" for _ in cluster.members)
        ports = ",".join(str(pg) for _, pg, _ in cluster.members.values())
        dsn = (f"host={hosts} port={ports} dbname=postgres user=postgres password={PASSWORD} "
               "target_session_attrs=read-write connect_timeout=2")  # fmt: skip
        with psycopg.connect(dsn, autocommit=True) as setup:
            setup.execute("CREATE TABLE approvals (n int PRIMARY KEY)")
        conn = {"c": None}

        def write(n: int) -> int:
            try:
                if conn["c"] is None or conn["c"].closed:
                    conn["c"] = psycopg.connect(dsn, autocommit=True)
                rows = conn["c"].execute("INSERT INTO approvals VALUES (%s) ON CONFLICT DO NOTHING", [n]).rowcount
            except psycopg.Error:
                if conn["c"] is not None:
                    conn["c"].close()
                raise
            return 1 - rows  # 0 rows: a retry of a commit whose answer was lost

        client = Client()
        killed = _drive(client, write, cluster.kill_leader)
        with psycopg.connect(dsn, autocommit=True) as check:
            present = {row[0] for row in check.execute("SELECT n FROM approvals")}
        return {**client.figures(killed), "redone": client.redone, "lost": len(set(client.acked) - present)}
    finally:
        cluster.stop()


def redis_run(tmp: Path, timeouts: dict) -> dict:
    cluster = SentinelCluster(tmp, **timeouts).start()
    try:
        sentinel = Sentinel([("127.0.0.1", int(a.rsplit(":", 1)[1])) for a in cluster.addresses], socket_timeout=1)
        master = sentinel.master_for(MASTER, socket_timeout=1)

        def write(n: int) -> int:
            master.set(f"approval:{n}", 1)
            return 0

        client = Client()
        killed = _drive(client, write, cluster.kill_master)
        assert wait_for(lambda: master.ping(), 30)
        present = {int(k.split(b":")[1]) for k in master.scan_iter("approval:*", count=1000)}
        return {**client.figures(killed), "redone": 0, "lost": len(set(client.acked) - present)}
    finally:
        cluster.stop()


def _summary(name: str, runs: list[dict]) -> str:
    def pct(key: str, q: float) -> float:
        values = sorted(r[key] for r in runs)
        return values[min(len(values) - 1, round(q * (len(values) - 1)))]

    median = statistics.median
    return (f"| {name} | {len(runs)} | {median(r['window'] for r in runs):.2f} | {pct('window', 0.95):.2f} | "
            f"{max(r['window'] for r in runs):.2f} | {median(r['first_success'] for r in runs):.2f} | "
            f"{max(r['first_success'] for r in runs):.2f} | {sum(r['redone'] for r in runs)} | "
            f"{sum(r['lost'] for r in runs)} |")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--only", choices=["pg", "redis"])
    ap.add_argument("--production", action="store_true", help="the ha profile's timeouts (deploy/), not the tests'")
    args = ap.parse_args()
    timeouts = PRODUCTION if args.production else TEST
    results = {}
    for name in ("pg", "redis"):
        if args.only and args.only != name:
            continue
        results[name] = []
        for i in range(args.runs):
            tmp = Path(tempfile.mkdtemp(prefix="enclave-sentinel-"))
            figures = pg_run(timeouts["pg"]) if name == "pg" else redis_run(tmp, timeouts["redis"])
            print(f"{name} run {i + 1}: " + ", ".join(f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}"
                                                       for k, v in figures.items()), flush=True)  # fmt: skip
            results[name].append(figures)
    print("| fault | runs | failed window p50 s | p95 s | max s | first success p50 s | max s | redone | lost |")
    print("|---|---|---|---|---|---|---|---|---|")
    labels = {"pg": "PostgreSQL leader SIGKILL (Patroni)", "redis": "Redis master SIGKILL (Sentinel)"}
    for name, runs in results.items():
        print(_summary(labels[name], runs))


if __name__ == "__main__":
    main()
