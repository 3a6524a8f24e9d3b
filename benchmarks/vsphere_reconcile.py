"""Benchmark: a 16-node SR-IOV cluster on the simulator with vCenter-like delays, approve -> ready.

Three ways to the same end state (every VM's template NIC replaced by VMXNET3 on the tenant's port group,
one VF each), each on a freshly started simulator:
  floor       the same vSphere operations issued directly, every chain in its own thread (a clone
              carries its NICs, so it waits for the port group, as Enclave's does)
  sequential  one VM at a time, waiting on each task in turn (the vHPC toolkit's way)
  batched     Enclave's converge path (observe, plan, preflight, one batch)
Reports wall time and SOAP requests (counted by the simulator) and the ratios.

Run: .venv/bin/python benchmarks/vsphere_reconcile.py [--nodes 16]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.vsphere.conftest import Sim, free_port  # noqa: E402
from vsphere.naming import node_marker  # noqa: E402
from vsphere.plan.specs import Adapter, ClusterIntent, NodeIntent  # noqa: E402
from vsphere.reconcile.converge import converge, preview  # noqa: E402
from vsphere.vim.driver import Driver  # noqa: E402

PF = "0000:3b:00.0"


def make_intent(nodes: int) -> ClusterIntent:
    hosts = tuple(f"DC0_C0_H{i}" for i in range(nodes))
    node_list = tuple(
        NodeIntent(
            name=f"hpc-n{i:02d}",
            marker=node_marker("cluster:bench", f"hpc-n{i:02d}"),
            host=hosts[i],
            cpus=4,
            memory_mb=4096,
            sriov_pfs=(PF,),
            latency_high=True,
        )
        for i in range(nodes)
    )
    return ClusterIntent(
        datacenter="DC0",
        compute_cluster="DC0_C0",
        template="hpc-template",
        dvs_name="SRIOV-IB-DVS",
        dvs_marker="dvs:bench",
        uplink_pnic="vmnic2",
        portgroup="SRIOV-IB-DVS-PG",
        portgroup_marker="segment:bench",
        vlan=100,
        hosts=hosts,
        nodes=node_list,
        marker="cluster:bench",
    )


def run_batched(drv: Driver, intent: ClusterIntent) -> None:
    converge(drv, intent)


def run_sequential(drv: Driver, intent: ClusterIntent) -> None:
    """vhpc_toolkit dvs -create ... then, per VM, clone, network -add (the template NIC replaced by
    VMXNET3 on the port group), sriov -add, power on; each waited."""
    drv.switches.ensure("DC0", intent.dvs_name, intent.dvs_marker, intent.hosts, intent.uplink_pnic)
    drv.portgroups.ensure("DC0", intent.dvs_name, intent.portgroup, intent.portgroup_marker, intent.vlan)
    for node in intent.nodes:
        drv.vms.ensure("DC0", intent.compute_cluster, intent.template, node)
        snap = drv.snapshot("DC0")
        pg = snap.portgroups[intent.portgroup][0]
        devices = [drv.devices.remove_nic(k) for k in template_nic_keys(snap, intent)]
        devices.append(drv.devices.adapter(Adapter.VMXNET3, -100, pg.key, pg.switch_uuid))
        drv.wait(drv.vms.start_reconfigure(snap.vm_mor(node.name), drv.devices.change_spec(devices), node.name), "nic")
        drv.devices.ensure_sriov_nic("DC0", node.name, node.marker, intent.portgroup, PF)
        drv.vms.ensure_power("DC0", node.name, node.marker, True)


def template_nic_keys(snap, intent: ClusterIntent) -> list[int]:
    """Device keys of the template's NICs (every clone drops them)."""
    return [nic.key for nic in snap.vms[intent.template][0].nics]


def run_floor(drv: Driver, intent: ClusterIntent) -> None:
    """Every dependency chain in its own thread, each request sent as soon as it can be."""
    snap = drv.snapshot("DC0")
    network_ready = threading.Event()
    pg_info: dict[str, tuple[str, str]] = {}
    errors: list[BaseException] = []

    def guard(fn):
        def run():
            try:
                fn()
            except BaseException as exc:  # reported after join
                errors.append(exc)
                network_ready.set()

        return run

    def network():
        dvs = drv.wait(drv.switches.start_create(snap, intent.dvs_name, intent.dvs_marker, intent.mtu), "dvs")
        hosts = [snap.hosts[h] for h in intent.hosts]
        add = drv.switches.start_add_hosts(dvs, drv.switches.config_version(dvs), hosts, intent.uplink_pnic)
        pg = drv.portgroups.start_create(dvs, intent.portgroup, intent.portgroup_marker, intent.vlan)
        drv.run_tasks([(add, "hosts"), (pg, "pg")])
        created = drv.snapshot("DC0").portgroups[intent.portgroup][0]
        pg_info["pg"] = (created.key, created.switch_uuid)
        network_ready.set()

    def vm_chain(node: NodeIntent):
        network_ready.wait()  # the clone's NICs join the port group, which must exist first
        key, uuid = pg_info["pg"]
        devices = [drv.devices.remove_nic(k) for k in template_nic_keys(snap, intent)]
        devices += [
            drv.devices.adapter(Adapter.VMXNET3, -100, key, uuid),
            drv.devices.sriov_nic(snap.pfs[node.host][PF], key, uuid, -101),
        ]
        clone = drv.vms.start_clone(snap, intent.template, intent.compute_cluster, node, devices=devices)
        vm = drv.wait(clone, node.name)
        drv.wait(drv.vms.start_reconfigure(vm, drv.vms.spec(node, marker=True), node.name), node.name)
        drv.wait(drv.vms.start_power(vm, True, node.name), node.name)

    threads = [threading.Thread(target=guard(network))]
    threads += [threading.Thread(target=guard(lambda n=n: vm_chain(n))) for n in intent.nodes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]


def measure(name: str, runner, nodes: int, workdir: Path) -> dict:
    """Fresh simulator, log in, then time `runner` and count its SOAP requests."""
    sim = Sim(workdir=workdir, port=free_port(), extra_args=("-profile", "vcenter", "-hosts", str(nodes)))
    sim.start()
    try:
        intent = make_intent(nodes)
        with Driver(sim.config()) as drv:
            sim.control("POST", "stats")  # reset: login is not part of the comparison
            start = time.perf_counter()
            runner(drv, intent)
            wall = time.perf_counter() - start
            soap = sim.control("GET", "stats")["total"]
            leftover = preview(drv, intent)
        if leftover:
            raise SystemExit(f"{name}: cluster not converged: {leftover[:3]}")
        return {"name": name, "wall": wall, "soap": soap}
    finally:
        sim.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=16)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="vsphere-bench-") as tmp:
        results = {}
        for name, runner in (("floor", run_floor), ("sequential", run_sequential), ("batched", run_batched)):
            workdir = Path(tmp) / name
            workdir.mkdir()
            results[name] = measure(name, runner, args.nodes, workdir)
    print(f"{args.nodes}-node SR-IOV cluster, simulator profile 'vcenter' (see tools/vcsim/delays.go)")
    print(f"{'variant':<12}{'wall s':>9}{'SOAP':>7}")
    for r in results.values():
        print(f"{r['name']:<12}{r['wall']:>9.2f}{r['soap']:>7}")
    floor, seq, batched = results["floor"], results["sequential"], results["batched"]
    print(f"batched / floor      = {batched['wall'] / floor['wall']:.2f}x  (goal <= 1.5)")
    print(f"sequential / batched = {seq['wall'] / batched['wall']:.2f}x  (goal >= 5)")
    print(f"SOAP sequential / batched = {seq['soap'] / batched['soap']:.2f}x")


if __name__ == "__main__":
    main()
