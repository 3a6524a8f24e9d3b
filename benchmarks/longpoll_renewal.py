"""Benchmark: a web process's CPU per node long-poll renewal, with many agents parked, now and at a baseline.

Run: source scripts/env.sh && python benchmarks/longpoll_renewal.py --db DB [--polls 1000] [--wait 30]
     [--seconds 90] [--baseline 00f2909]

DB is a site database kept by `python benchmarks/site_scale.py --keep` (its nodes n00000.. carry the
credentials encn_bench_n00000..). For this checkout and then the baseline (`git archive`), it starts
one web process with the production configuration (portal/gunicorn_conf.py) and a throwaway Redis,
parks --polls raw long-polls against it (http.client, answers not parsed, from two niced processes; each
node's polls on one kept-alive connection as the agent's client sends them, and, for comparison, on a new
connection each as agents did before),
waits until all are parked and the renewals have spread out, and reports the web process's CPU
seconds per renewal over --seconds. A renewal is what 2,000 nodes do ~70 times a second.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import shutil
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from site_scale import ROOT, Redis, Site, _children, baseline_code  # noqa: E402


class _Poller:
    """One node's polls: a new connection each (as agents did before 11-27) or one kept alive (as they do now)."""

    def __init__(self, port: int, name: str, wait: int, keepalive: bool):
        self.port, self.wait, self.keepalive, self.conn = port, wait, keepalive, None
        self.headers, self.path = {"Authorization": f"Bearer encn_bench_{name}"}, f"/api/v1/agents/{name}/desired-state"

    def get(self, etag: str | None) -> tuple[int, str | None]:
        headers = self.headers | ({"If-None-Match": etag} if etag else {})
        headers |= {} if self.keepalive else {"Connection": "close"}
        self.conn = self.conn or http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.wait + 60)
        try:
            self.conn.request("GET", f"{self.path}?wait={self.wait}" if etag else self.path, headers=headers)
            answer = self.conn.getresponse()
            answer.read()
        except (OSError, http.client.HTTPException):
            self.conn.close()
            self.conn = None
            raise OSError("poll failed") from None
        if answer.will_close:
            self.conn.close()
            self.conn = None
        return answer.status, answer.getheader("ETag")


def _add(counter) -> None:
    """One more, counted from many threads of two processes (an unlocked += lost some: 999 of 1,000 parked)."""
    with counter.get_lock():
        counter.value += 1


def _agent(port: int, name: str, wait: int, keepalive: bool, parked, renewals) -> None:
    poller, etag = _Poller(port, name, wait, keepalive), None
    while etag is None:
        try:
            status, tag = poller.get(None)
            etag = tag if status == 200 else None
        except OSError:
            pass
        if etag is None:
            time.sleep(1)
    _add(parked)
    while True:
        try:
            status, tag = poller.get(etag)
            if status not in (200, 304):  # a 503 is no renewal: counted, it hid a dead listener (11-27)
                raise OSError(f"HTTP {status}")
            _add(renewals)
            etag = tag or etag
        except OSError:
            time.sleep(1)


def _agents(port: int, names: list[str], wait: int, keepalive: bool, parked, renewals) -> None:
    os.nice(19)  # the measured process is the web server, not its clients
    threading.stack_size(512 * 1024)
    for name in names:
        threading.Thread(target=_agent, args=(port, name, wait, keepalive, parked, renewals), daemon=True).start()
        time.sleep(0.03)
    while True:
        time.sleep(60)


def _cpu_seconds(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime + stime
    return total / os.sysconf("SC_CLK_TCK")


def measure(code: Path, args, keepalive: bool) -> dict:
    """Park the polls against one web process of `code`; its CPU per renewal once settled."""
    redis = Redis()
    site = Site(code, args.db, redis.port, pool_size=40)
    parked, renewals = multiprocessing.Value("i", 0), multiprocessing.Value("i", 0)
    clients = []
    try:
        site.start(webs=1, workers=0)
        pids = [site.procs[0].pid] + _children(site.procs[0].pid)
        names = [f"n{k:05d}" for k in range(args.polls)]
        for half in (names[0::2], names[1::2]):
            clients.append(multiprocessing.Process(target=_agents, args=(site.ports[0], half, args.wait, keepalive,
                                                                         parked, renewals), daemon=True))  # fmt: skip
            clients[-1].start()
        start = time.monotonic()
        while parked.value < args.polls and time.monotonic() - start < 600:
            time.sleep(1)
        parked_s = time.monotonic() - start
        time.sleep(args.wait * 1.5)  # renewals spread over the jittered hold
        cpu0, count0, wall0 = _cpu_seconds(pids), renewals.value, time.monotonic()
        time.sleep(args.seconds)
        cpu1, count1, wall1 = _cpu_seconds(pids), renewals.value, time.monotonic()
    finally:
        for client in clients:
            client.kill()
        site.stop()
        redis.stop()
    count, wall, cpu = count1 - count0, wall1 - wall0, cpu1 - cpu0
    return {"parked": parked.value, "parked_s": round(parked_s, 1), "renewals_per_s": round(count / wall, 1),
            "web_cores": round(cpu / wall, 3), "cpu_ms_per_renewal": round(1000 * cpu / max(count, 1), 2)}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True, help="a database kept by site_scale.py --keep")
    parser.add_argument("--polls", type=int, default=1000)
    parser.add_argument("--wait", type=int, default=30, help="seconds each long-poll asks for (the agent's default)")
    parser.add_argument("--seconds", type=float, default=90.0)
    parser.add_argument(
        "--baseline",
        default="00f2909",
        help="a commit to measure too (a new connection per poll, as then); '' skips it",
    )
    args = parser.parse_args()
    results = {"args": vars(args), "current": measure(ROOT, args, keepalive=True)}
    print(json.dumps(results), flush=True)
    results["current_connection_per_poll"] = measure(ROOT, args, keepalive=False)
    print(json.dumps(results), flush=True)
    if args.baseline:
        code = baseline_code(args.baseline)
        try:
            results["baseline"] = measure(code, args, keepalive=False)
        finally:
            shutil.rmtree(code, ignore_errors=True)
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
