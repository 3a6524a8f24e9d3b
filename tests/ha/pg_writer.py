"""A client of the portal's database during a failover: `write [first n]` approves and prints ACK n; `check` audits.

write: approval n is one audited event (action ha.approve, object n) written only if absent, in one
transaction, so a retry after an unknown outcome (the primary died mid-commit) cannot realize it twice.
check: reads acknowledged numbers on stdin and prints JSON: missing, duplicated, the audit chain.
"""

import json
import sys
import time

import django

django.setup()

from django.contrib.auth.models import Group  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.db.models import Count  # noqa: E402

from audit import chain  # noqa: E402
from audit.models import AuditEvent  # noqa: E402
from audit.services import record  # noqa: E402

ACTION = "ha.approve"


def approve(n: int) -> None:
    """Realize approval n once (compare-and-set on its audit event)."""
    with transaction.atomic():
        if not AuditEvent.objects.filter(action=ACTION, object_id=str(n)).exists():
            record(ACTION, Group(pk=n, name=f"approval-{n}"), after={"approved": n})


def write(start: int = 0) -> None:
    n = start
    while True:
        try:
            approve(n)
        except django.db.Error as error:  # the primary is gone: retry the same approval on the next leader
            print(f"ERR {n} {type(error).__name__} {time.time()}", flush=True)
            connection.close()
            time.sleep(0.2)
            continue
        print(f"ACK {n} {time.time()}", flush=True)
        n += 1


def check() -> None:
    acked = {int(line) for line in sys.stdin.read().split()}
    rows = AuditEvent.objects.filter(action=ACTION).values("object_id").annotate(n=Count("id"))
    counts = {int(row["object_id"]): row["n"] for row in rows}
    report = chain.verify()
    duplicated = sorted(k for k, v in counts.items() if v > 1)
    print(json.dumps({"missing": sorted(acked - counts.keys()), "duplicated": duplicated, "realized": len(counts),
                      "chain_ok": report.ok, "chain_problem": report.problem}))  # fmt: skip


if __name__ == "__main__":
    {"write": write, "check": check}[sys.argv[1]](*map(int, sys.argv[2:]))
