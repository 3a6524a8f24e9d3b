"""Benchmark: what a site admin's site-wide actions cost at 10,000 tenants, now and at a baseline commit.

Run: source scripts/env.sh && python benchmarks/site_edits.py --db DB [--tries 3] [--baseline 3f31288]

DB is a database kept by `python benchmarks/site_scale.py --keep`. In-process (no HTTP server, no agents),
as the site admin bench-admin, each --tries times after one warm-up, fastest and slowest printed:
- the check a site change runs (twice: before and after) to refuse what would no longer compile;
- an admin's edit of a service every tenant's rules name, through the service layer, rolled back;
- an admin's edit of a site rule (its description), rolled back;
- an admin's what-if question about a tenant's address;
- the nodes' refresh a change of a service's ports queues (committed, then undone and refreshed again):
  `agents.refresh.refresh_site()` where the code has it (only the tenant parts whose site inputs
  changed), else `agents.refresh.refresh(None)` (every tenant's part recompiled and compared).
Then the same in a `git worktree` of --baseline against the same database (it must share its migrations).
"""

from __future__ import annotations

import argparse
import ipaddress
import shutil
import subprocess
import sys
import tempfile
import time
from contextlib import suppress
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]


class _Undo(Exception):
    """Raised to roll an edit back once it has been made."""


def _rolled_back(edit) -> None:
    from django.db import transaction

    with suppress(_Undo), transaction.atomic():
        edit()
        raise _Undo


def _timed(label: str, action, tries: int) -> None:
    action()
    times = []
    for _ in range(tries):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    print(f"{label:58} fastest {min(times):9.1f} ms  slowest {max(times):9.1f} ms", flush=True)


def measure(tries: int, refresh: bool) -> None:
    """Print one line per action, with the code of ROOT."""
    from django.contrib.auth import get_user_model

    from netpolicy import checks, policy, rules, whatif
    from netpolicy.models import LIVE, FirewallRule, Segment, Service

    admin = get_user_model().objects.get(username="bench-admin")
    service = Service.objects.get(name="ssh")
    rule = FirewallRule.objects.filter(policy__tenant__isnull=True).order_by("pk").first()
    segment = Segment.objects.filter(LIVE).order_by("pk")[Segment.objects.filter(LIVE).count() // 2]
    address = str(ipaddress.ip_network(segment.subnet)[5])
    print(f"code at {ROOT}", flush=True)
    _timed("site change check (checks.problems(None))", lambda: checks.problems(None), tries)
    edit = lambda: policy.save_service(admin, {"description": "benchmark"}, service)  # noqa: E731
    _timed("service edit (save_service, rolled back)", lambda: _rolled_back(edit), tries)
    edit_rule = lambda: rules.save_rule(admin, {"description": "benchmark"}, rule)  # noqa: E731
    _timed("site rule edit (save_rule, rolled back)", lambda: _rolled_back(edit_rule), tries)
    ask = lambda: whatif.answer(admin, "192.0.2.7", address, "tcp", 22)  # noqa: E731
    _timed(f"admin what-if 192.0.2.7 -> {address} tcp/22", ask, tries)
    if refresh:
        _nodes_refresh(admin, service)


def _nodes_refresh(admin, service) -> None:
    """Time the refresh a committed change of a service's ports queues; undo the change and refresh again."""
    from agents import refresh
    from netpolicy import policy

    queued = getattr(refresh, "refresh_site", None)
    name = "refresh_site()" if queued else "refresh(None)"
    queued = queued or (lambda: refresh.refresh(None))
    ports = service.ports
    for label, value in (("changed", "2200-2222"), ("changed back", ports)):
        policy.save_service(admin, {"ports": value}, service)
        start = time.perf_counter()
        done = queued()
        took = (time.perf_counter() - start) * 1000
        print(f"{'nodes refresh, ports ' + label + ' (' + name + ')':58} {took:9.1f} ms  {done}", flush=True)


def _baseline(commit: str, args) -> None:
    """This script, run from a worktree of the baseline commit against the same database."""
    tree = Path(tempfile.mkdtemp(prefix="site-edits-baseline-"))
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), commit], check=True,
                   capture_output=True)  # fmt: skip
    try:
        shutil.copy(__file__, tree / "benchmarks" / "site_edits.py")
        shutil.copy(ROOT / "benchmarks" / "list_pages.py", tree / "benchmarks" / "list_pages.py")
        command = [sys.executable, str(tree / "benchmarks" / "site_edits.py"), "--db", args.db,
                   "--tries", str(args.tries), "--baseline", ""]  # fmt: skip
        command += [] if args.refresh else ["--no-refresh"]
        subprocess.run(command, check=True, cwd=tree)  # from the checkout, the checkout's modules come first
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True, help="a database kept by site_scale.py --keep")
    parser.add_argument("--tries", type=int, default=3)
    parser.add_argument("--baseline", default="3f31288", help="commit to compare with ('' for none)")
    parser.add_argument("--no-refresh", dest="refresh", action="store_false", help="leave the 20-40 s refresh out")
    args = parser.parse_args()
    from list_pages import _setup

    _setup(args.db)
    measure(args.tries, args.refresh)
    if args.baseline:
        _baseline(args.baseline, args)


if __name__ == "__main__":
    main()
