"""Benchmark: every list endpoint and main page in-process against a kept site database, with its queries.

Run: source scripts/env.sh && python benchmarks/list_pages.py --db DB [--as bench-admin pi-0] [--tries 3]

DB is a database kept by `python benchmarks/site_scale.py --keep` (10,000 tenants). Each path is requested
through Django's test client (no HTTP server, no agents: the request's own cost), once to warm up and then
--tries times; printed: the fastest time, the status, the number of queries and the slowest query. The
lists and pages are site_scale_http's. A query that reads the whole site shows up as the slowest one.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]


def _setup(database: str) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
    os.environ["ENCLAVE_DB_NAME"] = database
    os.environ["ENCLAVE_DB_USER"] = os.environ.get("ENCLAVE_DB_OWNER_USER", "enclave")
    os.environ["ENCLAVE_DB_PASSWORD"] = os.environ.get("ENCLAVE_DB_OWNER_PASSWORD", "")
    import django

    django.setup()
    from django.conf import settings

    settings.ALLOWED_HOSTS = ["*"]


def _paths(admin: bool) -> list[str]:
    from site_scale_http import ADMIN_ONLY, API_LISTS, PAGES

    paths = [f"/api/v1/{name}/" for name in API_LISTS if admin or name not in ADMIN_ONLY]
    return paths + [path for path in PAGES if admin or path not in ADMIN_ONLY]


def measure(username: str, tries: int) -> None:
    """Print one line per list and page for this user."""
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    user = get_user_model().objects.get(username=username)
    client = Client()
    client.force_login(user)
    for path in _paths(user.is_staff):
        client.get(path)
        best, status, queries = None, None, []
        for _ in range(tries):
            with CaptureQueriesContext(connection) as captured:
                start = time.perf_counter()
                status = client.get(path).status_code
                elapsed = (time.perf_counter() - start) * 1000
            best, queries = min(best or elapsed, elapsed), captured.captured_queries
        slowest = max(queries, key=lambda q: float(q["time"]))
        print(f"{username:12} {best:6.0f} ms {status} {len(queries):3d} queries, slowest "
              f"{float(slowest['time']) * 1000:4.0f} ms  {path}  | {slowest['sql'][:90]}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True, help="a database kept by site_scale.py --keep")
    parser.add_argument("--as", dest="users", nargs="+", default=["bench-admin", "pi-0"])
    parser.add_argument("--tries", type=int, default=3)
    args = parser.parse_args()
    _setup(args.db)
    for username in args.users:
        measure(username, args.tries)


if __name__ == "__main__":
    main()
