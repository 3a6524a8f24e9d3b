"""Benchmark: push 100 tenants' compiled policies to their port groups' traffic filters on the simulator.

Each tenant has the default isolation policy (netpolicy.compiler.defaults) compiled by the VDS compiler
(netpolicy.compiler.vds); its port group exists without a filter. Two ways to the same end state, each
on a freshly started simulator with the `vcenter` delay profile (tools/vcsim/delays.go):
  floor     the same ReconfigureDVPortgroup_Task calls issued directly, one thread per port group,
            each waiting on its own task (as a script would)
  enclave   vsphere.reconcile.portgroup_filters.push: one inventory read, the differing port groups in one batch, one
            property collector for every task
Reports wall time and SOAP requests (counted by the simulator), and checks every filter read back.

Run: .venv/bin/python benchmarks/vds_policy_push.py [--tenants 100]
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")

import django  # noqa: E402

django.setup()  # vsphere.reconcile.portgroup_filters imports the Django models (nothing here touches the database)

from netpolicy.compiler.vds import compile_tenant  # noqa: E402
from tests.netpolicy.builders import make_site, make_tenant  # noqa: E402
from tests.vsphere.conftest import Sim, free_port  # noqa: E402
from vsphere.reconcile.portgroup_filters import PortgroupFilter, push  # noqa: E402
from vsphere.vim.driver import Driver  # noqa: E402

DVS = "bench-dvs"


def wanted_filters(tenants: int) -> list[PortgroupFilter]:
    """Every tenant's default policy compiled for its port group."""
    site = make_site([make_tenant(f"t{i}", i) for i in range(1, tenants + 1)])
    return [
        PortgroupFilter(
            f"enclave-t{i}-vlan{100 + i}", f"enclave:segment:t{i}:vlan{100 + i}", 100 + i, compile_tenant(site, f"t{i}")
        )  # fmt: skip
        for i in range(1, tenants + 1)
    ]


def prepare(drv: Driver, wanted: list[PortgroupFilter]) -> None:
    """The switch and every tenant's port group, without a filter (not timed)."""
    snap = drv.snapshot("DC0")
    dvs = drv.wait(drv.switches.start_create(snap, DVS, "dvs:bench", 9000), "dvs")
    tasks = [(drv.portgroups.start_create(dvs, w.portgroup, w.marker, w.vlan), w.portgroup) for w in wanted]
    drv.run_tasks(tasks)


def run_floor(drv: Driver, wanted: list[PortgroupFilter]) -> None:
    """One thread per port group: read it, reconfigure it, wait on its task."""
    snap = drv.snapshot("DC0")
    errors: list[BaseException] = []

    def one(target: PortgroupFilter) -> None:
        try:
            pg, mor = snap.portgroups[target.portgroup]
            version = snap.pg_config_version[target.portgroup]
            task = drv.portgroups.start_configure(mor, target.portgroup, target.marker, target.vlan, version,
                                                target.rules, pg.num_ports)  # fmt: skip
            drv.wait(task, target.portgroup)
        except BaseException as exc:  # reported after join
            errors.append(exc)

    threads = [threading.Thread(target=one, args=(w,)) for w in wanted]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]


def run_enclave(drv: Driver, wanted: list[PortgroupFilter]) -> None:
    changed = push(drv, "DC0", wanted)
    if len(changed) != len(wanted):
        raise SystemExit(f"enclave: pushed {len(changed)} of {len(wanted)} port groups")


def measure(name: str, runner, wanted: list[PortgroupFilter], workdir: Path) -> dict:
    """Fresh simulator, port groups prepared, then time `runner` and count its SOAP requests."""
    sim = Sim(workdir=workdir, port=free_port(), extra_args=("-profile", "vcenter"))
    sim.start()
    try:
        with Driver(sim.config()) as drv:
            prepare(drv, wanted)
            sim.control("POST", "stats")  # reset: login and preparation are not compared
            start = time.perf_counter()
            runner(drv, wanted)
            wall = time.perf_counter() - start
            soap = sim.control("GET", "stats")
            observed = drv.snapshot("DC0").portgroups
        wrong = [w.portgroup for w in wanted if observed[w.portgroup][0].filter_rules != w.rules]
        if wrong:
            raise SystemExit(f"{name}: {len(wrong)} filters differ after the push, e.g. {wrong[:3]}")
        return {"name": name, "wall": wall, "soap": soap["total"], "methods": soap["methods"]}
    finally:
        sim.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tenants", type=int, default=100)
    args = parser.parse_args()
    wanted = wanted_filters(args.tenants)
    rules = sum(len(w.rules) for w in wanted)
    results = {}
    with tempfile.TemporaryDirectory(prefix="vds-bench-") as tmp:
        for name, runner in (("floor", run_floor), ("enclave", run_enclave)):
            workdir = Path(tmp) / name
            workdir.mkdir()
            results[name] = measure(name, runner, wanted, workdir)
    print(f"{args.tenants} tenants' port groups, {rules} filter rules in all ({rules // args.tenants} each), "
          f"simulator profile 'vcenter'; {platform.node()}, {os.cpu_count()} CPUs")  # fmt: skip
    print(f"{'variant':<10}{'wall s':>9}{'SOAP':>7}  reconfigures")
    for r in results.values():
        print(f"{r['name']:<10}{r['wall']:>9.2f}{r['soap']:>7}  {r['methods'].get('ReconfigureDVPortgroup_Task', 0)}")
    floor, enclave = results["floor"], results["enclave"]
    print(f"enclave / floor = {enclave['wall'] / floor['wall']:.2f}x wall (goal <= 1.5), "
          f"{enclave['soap'] / floor['soap']:.2f}x SOAP requests")  # fmt: skip


if __name__ == "__main__":
    main()
