"""Benchmark: what the nodes' observed-state reports cost the portal, posted every pass or only with news.

Run: source scripts/env.sh && python benchmarks/observed_report.py --db DB [--node n00000] [--posts 30]

DB is a database kept by `python benchmarks/site_scale.py --keep` (10,000 tenants, 1,000 on each node).
In-process (Django's test client, the whole middleware and view, no HTTP server) the node posts the
report of a pass that changed nothing, --posts times after one warm-up; then the agent's Reporter is
driven through an hour of 30 s passes that change nothing (on a stepped clock, no waiting), against the
baseline of one post per pass. Prints the portal's time per report and its share of one core for 2,000
nodes both ways. Writes the node's last report (a benchmark database).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "agent")]
PASS_EVERY = 30.0  # the agent's long-poll: a pass after each one
NODES = 2_000


def report_of(client, node: str) -> dict:
    """A pass that found every tenant of the node's document in place."""
    auth = {"HTTP_AUTHORIZATION": f"Bearer encn_bench_{node}"}
    document = json.loads(client.get(f"/api/v1/agents/{node}/desired-state", **auth).content)
    tenants = {str(t["id"]): {"status": "ready", "errors": []} for t in document.get("tenants") or []}
    return {"generation": document["generation"], "full": False, "ops": 0, "processes": 0, "seconds": 0.5,
            "capabilities": {}, "tenants": tenants, "node_errors": []}  # fmt: skip


def time_posts(client, node: str, report: dict, posts: int) -> list[float]:
    auth = {"HTTP_AUTHORIZATION": f"Bearer encn_bench_{node}"}
    times = []
    for k in range(posts + 1):
        body = json.dumps(report | {"seconds": 0.5 + k / 1000})
        start = time.perf_counter()
        response = client.post(f"/api/v1/agents/{node}/observed-state", body, "application/json", **auth)
        if response.status_code != 204:
            raise SystemExit(f"observed-state: {response.status_code} {response.content[:300]!r}")
        if k:  # the first one warms up
            times.append(time.perf_counter() - start)
    return times


def posts_per_hour(report: dict) -> int:
    """The agent's Reporter over an hour of passes that change nothing (its clock stepped)."""
    from enclave_agent.agent import Reporter

    class Counting:
        posts = 0

        def report(self, observed):
            Counting.posts += 1

    now = [0.0]
    reporter = Reporter(clock=lambda: now[0])
    for k in range(int(3600 / PASS_EVERY)):
        now[0] = k * PASS_EVERY
        reporter.send(Counting(), report | {"seconds": 0.5 + k / 1000})
    return Counting.posts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--node", default="n00000")
    parser.add_argument("--posts", type=int, default=30)
    args = parser.parse_args()
    os.environ.update(ENCLAVE_DB_NAME=args.db, DJANGO_SETTINGS_MODULE="portal.settings",
                      ENCLAVE_ALLOWED_HOSTS="testserver", ENCLAVE_API_RATE_USER="1000000/minute")  # fmt: skip
    import django

    django.setup()
    from django.test import Client

    client = Client()
    report = report_of(client, args.node)
    times = time_posts(client, args.node, report, args.posts)
    per = statistics.median(times)
    now, baseline = posts_per_hour(report), int(3600 / PASS_EVERY)
    print(
        f"report: {len(report['tenants'])} tenants, {len(json.dumps(report))} bytes; portal time per report "
        f"median {per * 1000:.1f} ms (min {min(times) * 1000:.1f}, max {max(times) * 1000:.1f}, n {len(times)})"
    )
    for label, count in (("baseline: every pass", baseline), ("now: only with news", now)):
        share = NODES * count / 3600 * per
        print(f"{label}: {count} posts per node and hour; {NODES} nodes keep {share:.2f} cores busy")


if __name__ == "__main__":
    main()
