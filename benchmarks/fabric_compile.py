"""Benchmark: the portal's side of a fabric's partitions, at T tenants x 4 VF ports each.

Run: source scripts/env.sh && python benchmarks/fabric_compile.py [--tenants 1000]

Against the local development database, inside a transaction rolled back at the end (nothing stays):
seeds T tenants with one SR-IOV InfiniBand cluster of 4 VFs each on hosts of one fabric, then times
(1) the first compile (T keys taken, each audited), (2) a one-tenant change (a new tenant's cluster:
its key taken and the document recompiled at T partitions), which is what an approval adds to its
transaction, (3) the agent's report of every port's table judged, and (4) the desired document served.
The fabric agent's side (partitions.conf, OpenSM's sweep) is benchmarks/ib_partitions.py.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "agent")]
PORTS = 4


class Rollback(Exception):
    pass


def seed(tenants: int, users):
    """T tenants, one IB cluster each with 4 VFs (GUIDs set), on 40 PFs of 10 hosts on fabric bench-ib."""
    from django.utils import timezone

    from fabrics.models import Fabric, FabricHost
    from tenants.models import Tenant, VirtualCluster
    from vsphere.models import Host, PhysicalFunction, VCenter, VFAssignment

    vc = VCenter.objects.create(name="bench", host="127.0.0.1", port=9, username="u", password="p",  # noqa: S106 - nothing listens
                                datacenter="DC0", compute_cluster="C0", template="t")  # fmt: skip
    hosts = Host.objects.bulk_create([Host(vcenter=vc, name=f"esx-{i}", compute_cluster="C0") for i in range(10)])
    pfs = PhysicalFunction.objects.bulk_create([
        PhysicalFunction(host=h, pci_id=f"0000:{j + 16:02x}:00.0", pnic=f"vmnic{j}", firmware_num_vfs=127, max_vfs=126)
        for h in hosts for j in range(4 * (tenants * PORTS // 5000 + 1))])  # fmt: skip
    fabric = Fabric.objects.create(name="bench-ib", pkey_first=1, pkey_last=0x7FFE,
                                   vf_guid_first="0x0002c90300000000", vf_guid_count=1 << 20)  # fmt: skip
    FabricHost.objects.bulk_create([FabricHost(fabric=fabric, host=h) for h in hosts])
    made = Tenant.objects.bulk_create([Tenant(slug=f"ib-bench-{i}", name=f"IB {i}") for i in range(tenants + 1)])
    lease = timezone.localdate() + datetime.timedelta(days=30)
    clusters = VirtualCluster.objects.bulk_create([
        VirtualCluster(tenant=t, name="mpi", workload_class="parallel-distributed", worker_count=3, vcpus_per_node=4,
                       memory_gb_per_node=8, lease_end=lease, justification="bench", requested_by=users,
                       state="ready", interconnect="sriov-ib") for t in made])  # fmt: skip
    slots = ((pf, s) for pf in pfs for s in range(pf.max_vfs))
    rows, n = [], 0
    for cluster in clusters[:-1]:
        for k in range(PORTS):
            pf, slot = next(slots)
            n += 1
            rows.append(
                VFAssignment(pf=pf, slot=slot, cluster=cluster, node_name=f"n{k}", port_guid=f"0x0002c903{n:08x}")
            )
    VFAssignment.objects.bulk_create(rows)
    extra = [(next(slots), clusters[-1]) for _ in range(PORTS)]
    return fabric, extra


def run(tenants: int) -> dict:
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.test import Client

    from agents.credentials import hash_token
    from audit.context import acting_as, system_actor
    from fabrics import desired, observed
    from fabrics.models import Fabric, FabricCredential
    from vsphere.models import VFAssignment

    found = {}
    with acting_as(system_actor("benchmark")):
        try:
            with transaction.atomic():
                user = get_user_model().objects.create_user("ib-bench-user")
                fabric, extra = seed(tenants, user)
                start = time.perf_counter()
                desired.sync(fabric)
                found["first compile (s)"] = time.perf_counter() - start
                for k, ((pf, slot), cluster) in enumerate(extra):
                    VFAssignment.objects.create(pf=pf, slot=slot, cluster=cluster, node_name=f"n{k}")
                start = time.perf_counter()
                desired.sync(fabric)
                found["one-tenant change (s)"] = time.perf_counter() - start
                doc = Fabric.objects.get(pk=fabric.pk).desired
                ports = {
                    g: [f"0x{int(p['pkey'], 16) | 0x8000:04x}", "0x7fff"] for p in doc["partitions"] for g in p["full"]
                }
                report = observed.parse_report({"schema": 1, "generation": doc["generation"],
                                                "applied_generation": doc["generation"], "ports": ports,
                                                "sm": {"kind": "opensm"}})  # fmt: skip
                times = []
                for _ in range(3):
                    start = time.perf_counter()
                    observed.record_report(fabric, report)
                    times.append(time.perf_counter() - start)
                found["report judged (s, median of 3)"] = statistics.median(times)
                until = datetime.datetime(2100, 1, 1, tzinfo=datetime.UTC)
                FabricCredential.objects.create(fabric=fabric, credential_hash=hash_token("encf_bench"), hint="bench",
                                                expires_at=until)  # fmt: skip
                client, times = Client(HTTP_HOST="localhost"), []
                for _ in range(5):
                    start = time.perf_counter()
                    response = client.get(
                        "/api/v1/fabric-agents/bench-ib/desired", HTTP_AUTHORIZATION="Bearer encf_bench"
                    )
                    times.append(time.perf_counter() - start)
                found["partitions"] = len(doc["partitions"])
                found["desired served (s, median of 5)"] = statistics.median(times)
                found["desired status"] = response.status_code
                raise Rollback
        except Rollback:
            pass
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tenants", type=int, default=1000)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
    import django

    django.setup()
    print(json.dumps(run(args.tenants), indent=1))


if __name__ == "__main__":
    main()
