"""Benchmark: realize N tenants' default policy plus 10 rules in NSX, one hierarchical PATCH per change
against one call per object, both against the NSX stand-in (tools/nsxsim), in the same run.

Run: .venv/bin/python benchmarks/nsx_realize.py [--tenants 100] [--realize-delay 0.2]
(no database, no root; each way gets a fresh stand-in process).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.netpolicy_compile import make_site  # noqa: E402
from nsx import bodies, compiler  # noqa: E402
from nsx.client import API, NsxClient, NsxConfig  # noqa: E402
from tests.nsx.nsxsim import NsxSim, free_port  # noqa: E402

TZ = "/infra/sites/default/enforcement-points/default/transport-zones/tz-overlay"
TARGET = compiler.Target("default", TZ, "/infra/tier-0s/t0-site")


def parts(count: int) -> list[dict[str, compiler.Desired]]:
    """The site's part, then one part per tenant (its tier-1, one overlay segment, groups, policies)."""
    site = make_site(count)
    found = [compiler.site_part(site, TARGET)]
    for i, tenant in enumerate(site.tenants):
        seg = compiler.SegmentSpec(
            i + 1, f"bench-{tenant.name}", f"10.{i >> 8}.{i & 255}.0/24", f"10.{i >> 8}.{i & 255}.1"
        )
        found.append(compiler.tenant_part(tenant, [seg], TARGET))
    return found


def hierarchical(client: NsxClient, wanted: list[dict]) -> None:
    for part in wanted:
        client.patch_infra(bodies.hierarchical(part, set(), TARGET.domain))


def per_object(client: NsxClient, wanted: list[dict]) -> None:
    for part in wanted:
        for method, path, body in bodies.flat_calls(part, set()):
            client.request(method, API + path, body)


def realized(client: NsxClient, timeout: float = 600) -> float:
    """Seconds until NSX reports everything realized."""
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        status = client.request("GET", f"{API}/infra/realized-state/status", params={"intent_path": "/infra"})
        if status["consolidated_status"]["consolidated_status"] == "SUCCESS":
            return time.perf_counter() - start
        time.sleep(0.05)
    raise TimeoutError("NSX did not realize everything")


def run(way, wanted: list[dict], delay: float) -> dict:
    """One way against a fresh stand-in: calls, seconds to send, seconds until realized."""
    with tempfile.TemporaryDirectory() as tmp:
        sim = NsxSim(Path(tmp), free_port(), extra_args=("--realize-delay", str(delay))).start()
        try:
            with NsxClient(NsxConfig(sim.url, sim.user, sim.password, sim.ca_file)) as client:
                start = time.perf_counter()
                way(client, wanted)
                sent = time.perf_counter() - start
                calls = client.calls
                until = realized(client)
                objects = len(sim.objects())
        finally:
            sim.stop()
    return {"way": way.__name__, "calls": calls, "send_s": round(sent, 2), "then_realized_s": round(until, 2),
            "objects_in_nsx": objects}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tenants", type=int, default=100)
    parser.add_argument("--realize-delay", type=float, default=0.2)
    args = parser.parse_args()
    wanted = parts(args.tenants)
    count = sum(len(p) for p in wanted)
    print(f"{args.tenants} tenants: {count} objects ({sum(len(p) for p in wanted[1:])} of the tenants), "
          f"{platform.processor() or platform.machine()}", flush=True)  # fmt: skip
    results = [run(hierarchical, wanted, args.realize_delay), run(per_object, wanted, args.realize_delay)]
    for row in results:
        print(json.dumps(row), flush=True)
    h, p = results
    print(
        f"per object / hierarchical: calls {p['calls'] / h['calls']:.1f}x, send time {p['send_s'] / h['send_s']:.1f}x"
    )


if __name__ == "__main__":
    main()
