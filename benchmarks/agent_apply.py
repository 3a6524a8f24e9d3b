"""Node agent benchmark: full/incremental apply vs `ip -batch` floor and the paper's per-command way,
and per-new-TCP-connection cost through the node ruleset at 10,000 tenants vs no ruleset.

Everything runs in throwaway network namespaces. The apply part needs VRF: on a kernel without
it (this machine) it boots the pinned-kernel QEMU guest (scripts/vrf-guest, TCG) and runs there.
Usage: .venv/bin/python benchmarks/agent_apply.py [--tenants 1000] [--conn-tenants 10000]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from enclave_agent import kernel, nftables
from enclave_agent.agent import Agent
from enclave_agent.plan import GROUP, KernelState, OpKind, plan
from enclave_agent.state import cgnat_for, loads, parse, table_for, vxlan_name

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable


def document(n: int, generation: int = 1, first: int = 100_000) -> dict:
    """Desired state with n tenants on one node (ids above 65536 on purpose)."""
    tenants = [
        {
            "id": tid,
            "vrf": {"name": f"vrf{tid}", "table": table_for(tid)},
            "vni": tid,
            "cgnat": cgnat_for(tid),
            "uids": [tid],
            "vxlans": [
                {
                    "device": vxlan_name("eth0", tid),
                    "underlay": "eth0",
                    "dstport": 4789,
                    "address": "10.0.0.1/24",
                    "group": "239.1.1.1",
                }
            ],
        }
        for tid in range(first, first + n)
    ]
    return {
        "generation": generation,
        "tenants": tenants,
        "nftables": "",
        "node": {
            "name": "bench",
            "address": "10.0.0.1",
            "interfaces": [{"name": "eth0", "address": "10.0.0.1/24", "gateway": "10.0.0.254"}],
        },
    }


def sh(*args: str, input: str | None = None, check: bool = True) -> subprocess.CompletedProcess:
    """Run one process."""
    return subprocess.run(args, input=input, capture_output=True, text=True, check=check)


def timed(fn):
    """(seconds, result)."""
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def _underlay() -> None:
    sh("ip", "link", "set", "lo", "up")
    sh("ip", "link", "add", "eth0", "type", "veth", "peer", "name", "peer0")
    sh("ip", "addr", "add", "10.0.0.1/24", "dev", "eth0")
    sh("ip", "link", "set", "eth0", "up")
    sh("ip", "link", "set", "peer0", "up")
    sh("ip", "route", "add", "default", "via", "10.0.0.254")


def paper_commands(t: dict) -> list[list[str]]:
    """The create_uvn way for one new user: one process per step (iptables -> nft here)."""
    vrf, table, cg = t["vrf"]["name"], str(t["vrf"]["table"]), t["cgnat"]
    vx = t["vxlans"][0]
    return [
        ["flock", "-n", "/tmp/uvn.lock", "true"],
        ["sysctl", "-qw", "net.ipv4.tcp_l3mdev_accept=1"],
        ["sysctl", "-qw", "net.ipv4.udp_l3mdev_accept=0"],
        ["sysctl", "-qw", "net.ipv4.raw_l3mdev_accept=1"],
        ["ip", "rule", "show"],
        ["ip", "-6", "rule", "show"],
        ["ip", "-o", "addr", "show"],
        ["ip", "link", "show", vrf],
        ["ip", "link", "add", vrf, "group", str(GROUP), "type", "vrf", "table", table],
        ["ip", "link", "set", vrf, "up"],
        ["ip", "addr", "add", "127.0.0.1/8", "dev", vrf],
        ["ip", "addr", "add", "::1/128", "dev", vrf],
        ["ip", "addr", "add", cg, "dev", vrf],
        ["ip", "route", "add", "default", "via", "10.0.0.254", "dev", "eth0", "src", cg.split("/")[0], "table", table],
        ["ip", "route", "add", cg, "dev", vrf],
        ["ip", "link", "show", vx["device"]],
        [
            "ip",
            "link",
            "add",
            vx["device"],
            "group",
            str(GROUP),
            "type",
            "vxlan",
            "id",
            str(t["vni"]),
            "dev",
            "eth0",
            "dstport",
            "4789",
            "ttl",
            "5",
            "group",
            vx["group"],
        ],
        ["ip", "link", "set", vx["device"], "master", vrf],
        ["ip", "addr", "add", vx["address"], "dev", vx["device"]],
        ["ip", "link", "set", vx["device"], "up"],
        [
            "nft",
            "add",
            "rule",
            "ip",
            "uvn",
            "post",
            "ip",
            "saddr",
            cg.split("/")[0],
            "oifname",
            "eth0",
            "snat",
            "to",
            "10.0.0.1",
        ],
    ]


def _paper(doc: dict, sample: int) -> dict:
    """Per-command baseline on `sample` users; per-user cost is independent of the count."""
    sh("nft", "-f", "-", input="table ip uvn {\n chain post {\n  type nat hook postrouting priority 100;\n }\n}\n")
    procs, start = 0, time.perf_counter()
    for t in doc["tenants"][:sample]:
        for cmd in paper_commands(t):
            subprocess.run(cmd, capture_output=True, check=False)
            procs += 1
    seconds = time.perf_counter() - start
    kernel.teardown()
    sh("nft", "delete", "table", "ip", "uvn")
    return {"per_tenant_s": seconds / sample, "processes_per_tenant": procs / sample, "sample": sample}


def _floor(desired) -> tuple[float, float]:
    """`ip -batch` of exactly the agent's link lines, from nothing; and per-device delete."""
    caps = kernel.probe()
    ops = plan(KernelState(), desired, caps, nftables.transaction(desired)).ops
    lines = [x for op in ops if op.kind == OpKind.CREATE for x in op.ip]
    create, _ = timed(lambda: sh("ip", "-batch", "-", input="\n".join(lines) + "\n"))
    dels = [f"route flush table {t.table}" for t in desired.tenants]
    dels += [f"link del {n}" for t in desired.tenants for n in [t.vrf, *(v.device for v in t.vxlans)]]
    delete, _ = timed(lambda: sh("ip", "-batch", "-", input="\n".join(dels) + "\n"))
    return create, delete


def apply_phase(n: int, sample: int) -> dict:
    """All apply measurements; runs inside a throwaway namespace on a VRF kernel."""
    _underlay()
    doc = document(n)
    desired = loads(json.dumps(doc))  # as received from the portal
    out: dict = {"tenants": n, "kernel": os.uname().release}
    # Floor first, on a fresh namespace: the most favourable conditions for the baseline.
    out["floor_create_s"], out["floor_delete_s"] = _floor(desired)
    with tempfile.TemporaryDirectory() as tmp:
        agent = Agent(Path(tmp))
        out["full_apply_s"], rep = timed(lambda: agent.run_pass(desired, full=True))
        assert rep.ok(), rep.node_errors or rep.tenants
        out["full_apply_processes"] = rep.processes
        out["noop_incremental_s"], rep = timed(lambda: agent.run_pass(desired))
        out["noop_ops"] = rep.ops
        out["noop_full_s"], rep = timed(lambda: agent.run_pass(desired, full=True))
        out["noop_full_ops"] = rep.ops
        steps = {"add_one": document(n + 1, 2), "change_one": document(n + 1, 3)}
        steps["change_one"]["tenants"][n // 2]["vxlans"][0]["group"] = "239.1.1.2"
        steps["remove_one"] = dict(steps["change_one"], generation=4, tenants=steps["change_one"]["tenants"][:-1])
        for name, raw in steps.items():
            text = json.dumps(raw)  # as the long-poll delivers it; decoding is timed
            out[f"{name}_s"], rep = timed(lambda text=text: agent.run_pass(loads(text)))
            assert rep.ok(), (name, rep.node_errors)
            out[f"{name}_ops"], out[f"{name}_processes"] = rep.ops, rep.processes
        out["teardown_s"], _ = timed(kernel.teardown)
    out["paper"] = _paper(doc, sample)
    kernel.teardown()
    return out


def native_estimate(n: int) -> dict:
    """Host-native decomposition of one incremental pass (the guest runs under TCG).

    The agent-side work (decode, validate, plan, persist) runs for real with the kernel calls
    replaced; the kernel side is one real `ip -batch` creating a VXLAN with address, up and
    alias (a tenant without its VRF, which this kernel cannot create).
    """
    from enclave_agent import agent as agent_mod
    from enclave_agent.plan import Capabilities

    real = (kernel.probe, kernel.read, kernel.apply)
    kernel.probe = lambda: Capabilities(True, True, True, "stub")
    kernel.read = lambda full, need_portal_table=True: KernelState()
    kernel.apply = lambda ops: kernel.ApplyResult(processes=1)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            agent = agent_mod.Agent(Path(tmp))
            agent.run_pass(loads(json.dumps(document(n))), full=True)
            texts = [json.dumps(document(n + 1 + i, 2 + i)) for i in range(20)]
            python_s = statistics.median(timed(lambda t=t: agent.run_pass(loads(t)))[0] for t in texts)
    finally:
        kernel.probe, kernel.read, kernel.apply = real
    ns = f"eb{uuid.uuid4().hex[:8]}"
    sh("ip", "netns", "add", ns)
    try:
        sh("ip", "netns", "exec", ns, "ip", "link", "add", "eth0", "type", "veth", "peer", "name", "p0")

        def batch(i: int) -> str:
            return (
                f"link add eth0u{i} group 4242 type vxlan id {i} dev eth0 dstport 4789 ttl 5"
                f" group 239.1.1.1\naddr add 10.0.0.1/24 dev eth0u{i}\nlink set eth0u{i} up\n"
                f'link set eth0u{i} alias "enclave:{i}:x"\n'
            )

        ip_s = statistics.median(
            timed(lambda i=i: sh("ip", "netns", "exec", ns, "ip", "-batch", "-", input=batch(i)))[0]
            for i in range(1, 21)
        )
    finally:
        sh("ip", "netns", "del", ns, check=False)
    # Conservative: includes the `ip netns exec` wrapper the agent itself does not pay.
    return {"python_ms": python_s * 1e3, "ip_batch_ms": ip_s * 1e3}


def in_netns(args: list[str]) -> dict:
    """Run this script with args in a fresh namespace; return its RESULT json."""
    ns = f"eb{uuid.uuid4().hex[:8]}"
    sh("ip", "netns", "add", ns)
    try:
        proc = sh("ip", "netns", "exec", ns, PY, __file__, *args, check=False)
    finally:
        sh("ip", "netns", "del", ns, check=False)
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    raise RuntimeError(f"no result: {proc.stdout[-2000:]} {proc.stderr[-3000:]}")


def apply_results(n: int, sample: int) -> dict:
    """Apply part: here if the kernel has VRF, else inside the QEMU guest."""
    if kernel.probe().vrf:
        return in_netns(["--phase", "apply", "--tenants", str(n), "--sample", str(sample)])
    spec = importlib.util.spec_from_file_location("g", ROOT / "scripts/vrf-guest/guest.py")
    guest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(guest)
    rc, log = guest.run(f"{PY} {__file__} --phase guest --tenants {n} --sample {sample}", timeout=3000, mem=2048)
    for line in log.splitlines():
        if "RESULT {" in line:  # the console may prefix escape codes
            found = json.loads(line[line.index("RESULT {") + 7 :])
            return found | {"where": f"QEMU TCG guest, {guest.KERNEL_PKG} {guest.KERNEL_VERSION}"}
    raise RuntimeError(f"guest rc={rc}: {log[-4000:]}")


SERVER = """import socket
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("198.51.100.1", 22)); s.listen(4096); print("READY", flush=True)
while True:
    c, _ = s.accept(); c.close()
"""
CLIENT = """import socket, struct, sys, time
n = int(sys.argv[1]); linger = struct.pack("ii", 1, 0)
start = time.perf_counter()
for _ in range(n):
    s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, linger)
    s.connect(("198.51.100.1", 22)); s.close()
print((time.perf_counter() - start) / n * 1e6)
"""


def portal_ruleset(doc: dict) -> str:
    """A compiled per-tenant policy in the set-based shape (one lookup, whatever the count)."""
    elems = ", ".join(f"{t['cgnat'].split('/')[0]} . 5000" for t in doc["tenants"])
    return (
        "table inet enclave {\n  set tenant_allow {\n    type ipv4_addr . inet_service\n"
        f"    elements = {{ {elems} }}\n  }}\n  chain input {{\n"
        "    type filter hook input priority 0; policy accept;\n"
        "    ct state established,related accept\n"
        "    ip saddr . tcp dport @tenant_allow accept\n"
        '    iifname "eth0" ip saddr != 10.0.0.0/24 tcp dport 22 accept\n'
        '    iifname "eth0" ip saddr != 10.0.0.0/24 drop\n  }\n}\n'
    )


def linear_ruleset(doc: dict) -> str:
    """Contrast: one rule per tenant (what per-user iptables rules amount to)."""
    rules = "\n".join(f"    ip saddr {t['cgnat'].split('/')[0]} tcp dport 5000 accept" for t in doc["tenants"])
    return (
        "table inet enclave {\n  chain input {\n"
        "    type filter hook input priority 0; policy accept;\n"
        f"    ct state established,related accept\n{rules}\n"
        '    iifname "eth0" ip saddr != 10.0.0.0/24 tcp dport 22 accept\n'
        '    iifname "eth0" ip saddr != 10.0.0.0/24 drop\n  }\n}\n'
    )


def _rulesets(n: int) -> dict[str, str]:
    out = {
        "none": "",
        "conntrack-only": "table inet ctonly {\n  chain input {\n    type filter "
        "hook input priority 0; policy accept;\n    ct state established,related accept\n"
        "  }\n}\n",
    }
    for label, count in (("enclave@10", 10), (f"enclave@{n}", n)):
        doc = document(count)
        doc["nftables"] = portal_ruleset(doc)
        out[label] = nftables.transaction(parse(doc))[1]
    out[f"linear@{n}"] = linear_ruleset(document(n))
    return out


def conn_results(n: int, per_round: int = 2000, rounds: int = 7) -> dict:
    """µs per new TCP connection through each ruleset (median of interleaved rounds)."""
    pre = f"ec{uuid.uuid4().hex[:6]}"
    srv, cli = f"{pre}s", f"{pre}c"
    for ns in (srv, cli):
        sh("ip", "netns", "add", ns)
    try:
        sh("ip", "link", "add", "eth0", "netns", srv, "type", "veth", "peer", "name", "eth0", "netns", cli)
        for ns, addr in ((srv, "198.51.100.1/24"), (cli, "198.51.100.2/24")):
            for cmd in (
                ["ip", "addr", "add", addr, "dev", "eth0"],
                ["ip", "link", "set", "eth0", "up"],
                ["ip", "link", "set", "lo", "up"],
            ):
                sh("ip", "netns", "exec", ns, *cmd)
        sh("ip", "netns", "exec", srv, "ip", "addr", "add", "10.0.0.1/24", "dev", "eth0")
        server = subprocess.Popen(["ip", "netns", "exec", srv, PY, "-c", SERVER], stdout=subprocess.PIPE, text=True)
        assert server.stdout.readline().strip() == "READY"
        samples: dict[str, list[float]] = {}
        try:
            rulesets = _rulesets(n)
            for _ in range(rounds):
                for label, text in rulesets.items():
                    sh("ip", "netns", "exec", srv, "nft", "flush", "ruleset")
                    if text:
                        sh("ip", "netns", "exec", srv, "nft", "-f", "-", input=text)
                    us = sh("ip", "netns", "exec", cli, PY, "-c", CLIENT, str(per_round)).stdout
                    samples.setdefault(label, []).append(float(us))
        finally:
            server.kill()
            server.wait()
    finally:
        for ns in (srv, cli):
            sh("ip", "netns", "del", ns, check=False)
    return {label: statistics.median(v) for label, v in samples.items()}


def report(res: dict, conn: dict, n: int, cn: int, native: dict) -> str:
    """Markdown table and ratios."""
    floor = res["floor_create_s"]
    paper = res["paper"]
    lines = [
        f"Apply ({res['tenants']} tenants, kernel {res['kernel']}, {res.get('where', 'host')}):",
        "",
        "| step | seconds | ops | processes |",
        "|---|---:|---:|---:|",
        f"| agent full apply from nothing | {res['full_apply_s']:.3f} | | {res['full_apply_processes']} |",
        f"| `ip -batch` floor (same link lines) | {floor:.3f} | | 1 |",
        f"| paper per-command (x{n}, from {paper['sample']} measured) | "
        f"{paper['per_tenant_s'] * n:.3f} | | {paper['processes_per_tenant'] * n:.0f} |",
        f"| re-apply, incremental | {res['noop_incremental_s']:.4f} | {res['noop_ops']} | |",
        f"| re-apply, full resync | {res['noop_full_s']:.4f} | {res['noop_full_ops']} | |",
    ]
    for step in ("add_one", "change_one", "remove_one"):
        lines.append(
            f"| {step.replace('_', ' ')} at {n} | {res[step + '_s']:.4f} | "
            f"{res[step + '_ops']} | {res[step + '_processes']} |"
        )
    lines += [
        f"| agent teardown (group delete) | {res['teardown_s']:.3f} | | |",
        f"| `ip -batch` per-device delete floor | {res['floor_delete_s']:.3f} | | 1 |",
        "",
        f"- full apply / ip-batch floor = **{res['full_apply_s'] / floor:.2f}x** (goal <= 2x)",
        f"- paper per-command / agent full apply = "
        f"**{paper['per_tenant_s'] * n / res['full_apply_s']:.1f}x**; paper: "
        f"{paper['processes_per_tenant']:.0f} processes and {paper['per_tenant_s']:.3f} s "
        "per new user",
        f"- host-native estimate of one incremental pass at {n}: agent-side "
        f"{native['python_ms']:.1f} ms + one `ip -batch` {native['ip_batch_ms']:.1f} ms = "
        f"**{native['python_ms'] + native['ip_batch_ms']:.1f} ms** (goal < 50 ms)",
        "",
        "Per new TCP connection (µs, median of 7 interleaved rounds of 2000):",
        "",
        "| ruleset | µs/conn | vs none |",
        "|---|---:|---:|",
    ]
    lines += [f"| {k} | {v:.1f} | {v / conn['none']:.3f}x |" for k, v in conn.items()]
    lines += ["", f"- enclave@{cn} / enclave@10 = **{conn[f'enclave@{cn}'] / conn['enclave@10']:.3f}x** (goal: flat)"]
    return "\n".join(lines)


def main() -> int:
    """Orchestrate (default) or run one phase."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--tenants", type=int, default=1000)
    ap.add_argument("--conn-tenants", type=int, default=10000)
    ap.add_argument("--sample", type=int, default=25)
    ap.add_argument("--phase", choices=["apply", "guest"])
    args = ap.parse_args()
    if args.phase == "apply":
        print("RESULT " + json.dumps(apply_phase(args.tenants, args.sample)))
        return 0
    if args.phase == "guest":
        print(
            "RESULT "
            + json.dumps(in_netns(["--phase", "apply", "--tenants", str(args.tenants), "--sample", str(args.sample)]))
        )
        return 0
    res = apply_results(args.tenants, args.sample)
    conn = conn_results(args.conn_tenants)
    native = native_estimate(args.tenants)
    print(report(res, conn, args.tenants, args.conn_tenants, native))
    print("RESULT " + json.dumps({"apply": res, "conn_us": conn, "native": native}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
