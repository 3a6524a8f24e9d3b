"""Benchmark: what a client sees while the PostgreSQL leader, the Redis master, the beat holder or a web replica dies.

Run: source scripts/env.sh && python benchmarks/failover.py [--runs 3] [--only pg|redis|beat|web] [--production]

Each run starts a fresh cluster with the test harness (tests/ha/: Patroni 3 members, synchronous_mode,
ttl 6 s, loop_wait 1 s, 3 etcd; Redis 3 servers + 3 Sentinels, down-after 1 s; two `celery beat` on the
leased scheduler, lease 2 s; two gunicorn replicas behind HAProxy with the ha profile's retries;
--production: the ha profile's ttl 20 s, loop_wait 5 s, retry_timeout 5 s, down-after 5 s and lease
30 s), drives one client every 20 ms the way the portal connects (libpq multi-host
target_session_attrs=read-write; redis-py through the Sentinels; HTTP GETs through HAProxy; for beat,
the schedule itself, an entry every 0.5 s, is the client), SIGKILLs the leader/master/holder/replica
mid-way and reports per run and overall: the window of failed requests (first to last failure, seconds;
beat: the gap between the last task the killed holder sent and the first its successor sent), the
time from the kill to the first success, the work redone (a retry that found its write already
committed; beat: a task both holders sent for the same tick) and the acknowledged writes missing.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import psycopg
import redis
from redis.sentinel import Sentinel

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.ha.patroni import PASSWORD, PatroniCluster  # noqa: E402
from tests.ha.proxy import haproxy  # noqa: E402
from tests.ha.sentinel import MASTER, SentinelCluster, free_port, wait_for  # noqa: E402

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


PRODUCTION = {"pg": {"ttl": 20, "loop_wait": 5, "retry_timeout": 5}, "redis": {"down_after_ms": 5000},
              "beat": {"lease": 30}, "web": {}}  # fmt: skip
TEST = {"pg": {}, "redis": {}, "beat": {"lease": 2}, "web": {}}  # the harness's: ttl 6 s, down-after 1 s, lease 2 s


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


def _beat(tmp: Path, name: str, env: dict) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "celery", "-A", "tests.ha.beat_app", "beat", "--loglevel=INFO",
           "--schedule", str(tmp / f"{name}-schedule")]  # fmt: skip
    with open(tmp / f"{name}.log", "wb") as out:
        return subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)


def beat_run(tmp: Path, timeouts: dict) -> dict:
    """Two beats on one lease (the test Redis); SIGKILL the holder; when does the schedule run again?"""
    url = os.environ["ENCLAVE_REDIS_URL"]
    client, run = redis.Redis.from_url(url), uuid.uuid4().hex[:8]
    queue, key = f"bench-beat-{run}", f"enclave:bench:beat:{run}"
    env = dict(os.environ, ENCLAVE_HA_QUEUE=queue, ENCLAVE_BEAT_LEASE_KEY=key, ENCLAVE_BROKER_URL=url,
               ENCLAVE_BEAT_LEASE="1", ENCLAVE_BEAT_LEASE_SECONDS=str(timeouts["lease"]))  # fmt: skip
    seen: list[tuple[float, str]] = []  # (arrival, origin) of every task sent

    def drain() -> None:
        while raw := client.rpop(queue):
            seen.append((time.monotonic(), json.loads(raw)["headers"]["origin"]))

    beats = [_beat(tmp, "first", env)]
    try:
        assert wait_for(lambda: drain() or len(seen) >= 2, 120)
        beats.append(_beat(tmp, "second", env))
        time.sleep(3)  # the standby is up and asking for the lease
        drain()
        holder = next(b for b in beats if seen[-1][1].startswith(f"gen{b.pid}@"))
        other = next(b for b in beats if b is not holder)
        holder.kill()
        killed = time.monotonic()
        holder.wait(timeout=20)
        assert wait_for(lambda: drain() or any(o.startswith(f"gen{other.pid}@") for _, o in seen), 300)
        drain()
        last_old = max(t for t, o in seen if o.startswith(f"gen{holder.pid}@"))
        first_new = min(t for t, o in seen if o.startswith(f"gen{other.pid}@"))
        overlap = sum(1 for t, o in seen if o.startswith(f"gen{holder.pid}@") and t > first_new)
        return {"window": first_new - last_old, "first_success": first_new - killed, "redone": overlap, "lost": 0}
    finally:
        for beat in beats:
            if beat.poll() is None:
                beat.kill()
                beat.wait(timeout=20)
        client.delete(queue, key, key + ":epoch")


def web_run(tmp: Path, timeouts: dict) -> dict:
    """Two gunicorn replicas behind HAProxy (retries on); GETs every 20 ms; SIGKILL one replica."""
    ports, proxy = [free_port(), free_port()], free_port()
    env = dict(os.environ, ENCLAVE_WEB_WORKERS="1", ENCLAVE_WEB_THREADS="20")
    cmd = [sys.executable, "-m", "gunicorn", "-c", "portal/gunicorn_conf.py", "portal.wsgi:application"]
    procs = [subprocess.Popen(cmd, cwd=ROOT, env=dict(env, ENCLAVE_BIND=f"127.0.0.1:{p}"), start_new_session=True,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for p in ports]  # fmt: skip
    procs.append(haproxy(tmp, proxy, ports, retry=True))
    try:
        assert wait_for(lambda: all(_http(p) for p in ports), 120), "the web replicas did not start"

        def write(n: int) -> int:
            if not _http(proxy):
                raise OSError("failed request")
            return 0

        client = Client()
        killed = _drive(client, write, lambda: os.killpg(procs[0].pid, signal.SIGKILL))
        return {**client.figures(killed), "redone": 0, "lost": 0}
    finally:
        for proc in procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=20)


def _http(port: int) -> bool:
    """One GET /healthz: True when the portal answered (its JSON, 200 or 503), not the proxy's error page."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", "/healthz")
        response = conn.getresponse()
        response.read()
        return response.getheader("Content-Type", "").startswith("application/json")
    finally:
        conn.close()


def percentile(values, q: float) -> float:
    """The nearest-rank q-quantile of a few values (q in 0..1)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _summary(name: str, runs: list[dict]) -> str:
    median = statistics.median
    windows = [r["window"] for r in runs]
    return (f"| {name} | {len(runs)} | {median(windows):.2f} | {percentile(windows, 0.95):.2f} | "
            f"{max(r['window'] for r in runs):.2f} | {median(r['first_success'] for r in runs):.2f} | "
            f"{max(r['first_success'] for r in runs):.2f} | {sum(r['redone'] for r in runs)} | "
            f"{sum(r['lost'] for r in runs)} |")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--only", choices=list(RUNS))
    ap.add_argument("--production", action="store_true", help="the ha profile's timeouts (deploy/), not the tests'")
    args = ap.parse_args()
    timeouts = PRODUCTION if args.production else TEST
    results = {}
    for name, run in RUNS.items():
        if args.only and args.only != name:
            continue
        results[name] = []
        for i in range(args.runs):
            tmp = Path(tempfile.mkdtemp(prefix=f"enclave-{name}-"))
            figures = run(tmp, timeouts[name])
            print(f"{name} run {i + 1}: " + ", ".join(f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}"
                                                       for k, v in figures.items()), flush=True)  # fmt: skip
            results[name].append(figures)
    print("| fault | runs | failed window p50 s | p95 s | max s | first success p50 s | max s | redone | lost |")
    print("|---|---|---|---|---|---|---|---|---|")
    labels = {"pg": "PostgreSQL leader SIGKILL (Patroni)", "redis": "Redis master SIGKILL (Sentinel)",
              "beat": "beat lease holder SIGKILL", "web": "web replica SIGKILL (HAProxy retries)"}  # fmt: skip
    for name, runs in results.items():
        print(_summary(labels[name], runs))


RUNS = {"pg": lambda tmp, t: pg_run(t), "redis": redis_run, "beat": beat_run, "web": web_run}

if __name__ == "__main__":
    main()
