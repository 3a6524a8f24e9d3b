"""Benchmark: compile and nft-check a node ruleset for N tenants; per-tenant chains vs one chain.

Run: sudo .venv/bin/python benchmarks/netpolicy_compile.py [--tenants 10000] [--update-sizes 2000,10000]
(needs root for a throwaway network namespace in which `nft -c` / `nft -f` run).

Compile time alone, against the compiler before its speed-up (tests/netpolicy/nft_previous.py) in
the same run, interleaved, with a check that both write the same bytes (no root needed):
.venv/bin/python benchmarks/netpolicy_compile.py --compile-only [--tenants 10000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from netpolicy.compiler import defaults, nft  # noqa: E402
from netpolicy.compiler.model import (  # noqa: E402
    Action,
    Category,
    Direction,
    Group,
    Policy,
    Protocol,
    Rule,
    Scope,
    Service,
    Site,
    Tenant,
)
from tests.netpolicy import nft_previous  # noqa: E402

WEB = Service("web", Protocol.TCP, ("8080", "8443-8444"))
JUPYTER = Service("jupyter", Protocol.TCP, ("8888-8899",))
MPI = Service("mpi", Protocol.TCP, ("20000-20999",))
SYSLOG = Service("syslog", Protocol.UDP, ("514",))


def tenant_net(i: int) -> tuple[str, str]:
    """Tenant i's IPv4 /24 prefix (without .0/24) and IPv6 /64."""
    return f"10.{i >> 8}.{i & 255}", f"fd00:{i:x}::"


def custom_rules(name: str, i: int) -> tuple[Rule, ...]:
    """Ten custom rules mixing actions, services, directions and partner networks."""
    v4, _ = tenant_net(i)
    grp = lambda n, *c: Group(n, Scope.TENANT, name, c)  # noqa: E731
    worker, manager = grp("worker", f"{v4}.32/27"), grp("manager", f"{v4}.11/32")
    login = Group("login", Scope.TENANT, name, (f"{v4}.10/32", f"fd00:{i:x}::10/128"), ("login",))
    base = 0x10000000 + (i << 4)  # a distinct /28 in 16.0.0.0/4 per tenant
    partner = grp(
        "partner", f"{base >> 24}.{(base >> 16) & 255}.{(base >> 8) & 255}.{base & 255}/28", f"2001:db8:{i:x}::/48"
    )
    return (
        Rule("slurm", 10, Action.ALLOW, (worker,), (manager,), (defaults.SLURM,)),
        Rule("mpi", 20, Action.ALLOW, (worker,), (worker,), (MPI,)),
        Rule("partner_web", 30, Action.ALLOW, (partner,), (login,), (WEB,), Direction.IN),
        Rule("partner_jup", 40, Action.ALLOW, (partner,), (login,), (JUPYTER,), Direction.IN, logged=True),
        Rule("no_syslog", 50, Action.DROP, (), (manager,), (SYSLOG,), Direction.IN),
        Rule("partner_ssh", 60, Action.ALLOW, (partner,), (worker,), (defaults.SSH,)),
        Rule("reject_web", 70, Action.REJECT, (), (worker,), (WEB,), Direction.IN),
        Rule("out_web", 80, Action.ALLOW, (worker,), (partner,), (WEB,), Direction.OUT),
        Rule("dns_tcp", 90, Action.ALLOW, (login,), (partner,), (defaults.DNS_TCP,), Direction.OUT),
        Rule("off", 100, Action.DROP, enabled=False),
    )


def make_tenant(i: int, nfs: Group, dns: Group, variant: int = 0) -> Tenant:
    """Tenant i with the default isolation policy plus ten custom rules."""
    name = f"t{i}"
    v4, v6 = tenant_net(i)
    roles = {"login": [f"{v4}.10/32", f"{v6}10/128"], "manager": [f"{v4}.11/32"], "worker": [f"{v4}.32/27"]}
    rules = custom_rules(name, i)
    if variant:
        # A changed rule: a different port on the MPI rule, as a tenant edit would do.
        rules = (
            Rule("mpi", 20, Action.ALLOW, rules[1].sources, rules[1].destinations, (defaults.SLURM,)),
            *rules[:1],
            *rules[2:],
        )
    custom = Policy(f"{name}_custom", Scope.TENANT, Category.ENVIRONMENT, 50, rules, name)
    return defaults.default_tenant(name, f"vrf{i}", [f"{v4}.0/24", f"{v6}/64"], roles, nfs, dns, (custom,))


def make_site(count: int) -> Site:
    """The benchmark site: default site policies and `count` tenants."""
    nfs, dns = defaults.site_groups(["10.255.0.10/32", "fd00:ff::10/128"], ["10.255.0.53/32"])
    tenants = tuple(make_tenant(i, nfs, dns) for i in range(count))
    return Site(defaults.site_policies(), tenants, defaults.SEEDED_SERVICES + (WEB, JUPYTER, MPI, SYSLOG), (nfs, dns))


def timed(fn, *args):
    """(result, seconds) of one call."""
    start = time.perf_counter()
    result = fn(*args)
    return result, time.perf_counter() - start


def nft_file(netns: str, path: Path, check: bool) -> float:
    """Seconds for the real nft binary to check (or load) a file inside the namespace."""
    argv = ["ip", "netns", "exec", netns, "nft", *(["-c"] if check else []), "-f", str(path)]
    start = time.perf_counter()
    subprocess.run(argv, check=True)
    return time.perf_counter() - start


def rules_traversed(text: str, tenant_chain: str | None) -> int:
    """Statements a new packet of the last tenant passes before its verdict (worst case)."""
    lines = text.splitlines()
    if tenant_chain is None:  # linear: every ingress statement of every tenant
        return len(_chain_lines(lines, "input")) - 1
    count = 2  # base chain: ct state + one verdict-map lookup
    for stmt in _chain_lines(lines, tenant_chain):
        if stmt.strip().startswith("jump p__"):
            count += len(_chain_lines(lines, stmt.split()[1]))
        count += 1
    return count


def _chain_lines(lines: list[str], chain: str) -> list[str]:
    out, inside = [], False
    for line in lines:
        if line.strip() == f"chain {chain} {{":
            inside = True
        elif inside and line.strip() == "}":
            return out
        elif inside:
            out.append(line)
    return out


def run(count: int, workdir: Path, netns: str) -> dict:
    """All measurements of one run."""
    res: dict = {}
    site, res["build_ir_s"] = timed(make_site, count)
    text, res["compile_s"] = timed(nft.compile_ruleset, site)
    linear, res["linear_compile_s"] = timed(nft.compile_linear, site)
    full, lin = workdir / "full.nft", workdir / "linear.nft"
    full.write_text(text)
    lin.write_text(linear)
    res["bytes"], res["linear_bytes"] = len(text), len(linear)
    res["check_s"] = nft_file(netns, full, check=True)
    res["linear_check_s"] = nft_file(netns, lin, check=True)
    res["load_s"] = nft_file(netns, full, check=False)
    last = count - 1
    nfs, dns = defaults.site_groups(["10.255.0.10/32", "fd00:ff::10/128"], ["10.255.0.53/32"])
    old = site.tenant(f"t{last}")
    tenants = tuple(t if t.name != old.name else make_tenant(last, nfs, dns, 1) for t in site.tenants)
    changed, res["rebuild_ir_s"] = timed(Site, site.policies, tenants, site.services, site.groups)
    update, res["update_compile_s"] = timed(nft.compile_tenant_update, changed, old.name, old)
    upd = workdir / "update.nft"
    upd.write_text(update)
    res["update_bytes"] = len(update)
    res["update_check_s"] = nft_file(netns, upd, check=True)
    res["update_apply_s"] = nft_file(netns, upd, check=False)
    relinear, res["linear_recompile_s"] = timed(nft.compile_linear, changed)
    lin.write_text(relinear)
    res["linear_recheck_s"] = nft_file(netns, lin, check=True)
    res["traversed"] = rules_traversed(text, nft.tenant_chain(old.name, "in"))
    res["linear_traversed"] = rules_traversed(linear, None)
    res["statements"] = sum(1 for line in text.splitlines() if line.startswith("\t\t"))
    res["linear_statements"] = sum(1 for line in linear.splitlines() if line.startswith("\t\t"))
    return res


def median_s(fn, *args, rounds: int = 50) -> float:
    """Median seconds of one call over `rounds` calls."""
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn(*args)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def update_costs(count: int) -> dict:
    """One tenant's change at `count` tenants: the update script, and its stored part re-assembled."""
    site = make_site(count)
    nfs, dns = defaults.site_groups(["10.255.0.10/32", "fd00:ff::10/128"], ["10.255.0.53/32"])
    last = count - 1
    old = site.tenant(f"t{last}")
    changed = Site(site.policies, tuple(t if t.name != old.name else make_tenant(last, nfs, dns, 1)
                                        for t in site.tenants), site.services, site.groups)  # fmt: skip
    tenant = changed.tenant(old.name)
    parts = [nft.tenant_part(site, t) for t in site.tenants]
    shared = nft.site_part(site)
    return {"tenants": count,
            "update_script_s": median_s(nft.compile_tenant_update, changed, old.name, old),
            "tenant_part_s": median_s(nft.tenant_part, changed, tenant),
            "assemble_s": median_s(nft.assemble, shared, parts, rounds=5)}  # fmt: skip


def forget(site: Site) -> None:
    """Drop every compiler's memos from the IR, so that each timed compile starts as a fresh one."""
    objects = [site, *site.policies, *site.services, *site.groups, *site.tenants]
    for policy in [*site.policies, *(p for t in site.tenants for p in t.policies)]:
        objects.append(policy)
        for rule in policy.rules:
            objects += [rule, *rule.sources, *rule.destinations, *rule.services]
    for obj in objects:
        for key in [k for k in obj.__dict__ if k.startswith(("_nft", "_old"))]:
            del obj.__dict__[key]


def compile_rounds(count: int, rounds: int) -> None:
    """Full compile, previous vs current compiler, interleaved on one site; wall and CPU seconds."""
    site, build_s = timed(make_site, count)
    if nft.compile_ruleset(site) != nft_previous.compile_ruleset(site):
        sys.exit("the compilers' rulesets differ")
    forget(site)
    print(
        f"tenants: {count}; IR build {build_s:.2f} s; identical rulesets: yes; "
        f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    parts, shared = [nft.tenant_part(site, t) for t in site.tenants], nft.site_part(site)
    forget(site)
    runs: dict[str, list[tuple[float, float]]] = {}
    for _ in range(rounds):
        for label, compiler in (("previous", nft_previous), ("current", nft)):
            runs.setdefault(f"full compile, {label}", []).append(_timed_cpu(compiler.compile_ruleset, site))
            forget(site)
            runs.setdefault(f"assemble stored parts, {label}", []).append(_timed_cpu(compiler.assemble, shared, parts))
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        "| step, compiler | wall median (s) | wall min (s) | CPU median (s) | CPU min (s) |\n|---|---:|---:|---:|---:|"
    )
    for label, samples in runs.items():
        walls, cpus = [w for w, _ in samples], [c for _, c in samples]
        print(
            f"| {label} | {statistics.median(walls):.3f} | {min(walls):.3f} | "
            f"{statistics.median(cpus):.3f} | {min(cpus):.3f} |"
        )


def _timed_cpu(fn, *args) -> tuple[float, float]:
    """(wall, CPU) seconds of one call, after a full collection."""
    gc.collect()
    wall, cpu = time.perf_counter(), time.process_time()
    fn(*args)
    return time.perf_counter() - wall, time.process_time() - cpu


def report(count: int, res: dict) -> None:
    """Print the table recorded in docs/benchmarks.md."""
    upd = res["update_compile_s"] + res["update_check_s"]
    rows = [
        ("compile full ruleset (s)", res["compile_s"], res["linear_compile_s"]),
        ("nft -c full ruleset (s)", res["check_s"], res["linear_check_s"]),
        ("ruleset size (MB)", res["bytes"] / 1e6, res["linear_bytes"] / 1e6),
        ("rule statements", res["statements"], res["linear_statements"]),
        ("statements a new packet of the last tenant passes (ingress)", res["traversed"], res["linear_traversed"]),
        ("one tenant changed: compile + nft -c (s)", upd, res["linear_recompile_s"] + res["linear_recheck_s"]),
    ]
    print(
        f"tenants: {count}; IR build {res['build_ir_s']:.2f} s; "
        f"full load (nft -f) {res['load_s']:.2f} s; update apply {res['update_apply_s']:.3f} s;"
        f" update script {res['update_bytes']} bytes; "
        f"max RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB"
    )
    print("| measure | per-tenant chains + vmap | linear baseline | baseline / ours |")
    print("|---|---:|---:|---:|")
    for label, ours, base in rows:
        ratio = base / ours if ours else float("inf")
        fmt = "{:.0f}" if isinstance(ours, int) else "{:.3f}"
        print(f"| {label} | {fmt.format(ours)} | {fmt.format(base)} | {ratio:.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tenants", type=int, default=10_000)
    parser.add_argument(
        "--update-sizes", default="2000,10000", help="tenant counts at which one tenant's update is compiled (no nft)"
    )
    parser.add_argument(
        "--compile-only",
        action="store_true",
        help="only time the full compile against the previous compiler (no nft, no root)",
    )
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds with --compile-only")
    args = parser.parse_args()
    if args.compile_only:
        compile_rounds(args.tenants, args.rounds)
        return
    print("| tenants | update script (ms) | tenant part (ms) | assemble stored parts (ms) |\n|---:|---:|---:|---:|")
    for size in [int(n) for n in args.update_sizes.split(",") if n]:
        row = update_costs(size)
        print(
            f"| {size} | {row['update_script_s'] * 1e3:.2f} | {row['tenant_part_s'] * 1e3:.2f} | "
            f"{row['assemble_s'] * 1e3:.1f} |"
        )
    if os.geteuid() != 0:
        sys.exit("needs root (ip netns); run with sudo")
    netns = f"npbench_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    subprocess.run(["ip", "netns", "add", netns], check=True)
    try:
        with tempfile.TemporaryDirectory(prefix="npbench_") as tmp:
            report(args.tenants, run(args.tenants, Path(tmp), netns))
    finally:
        subprocess.run(["ip", "netns", "del", netns], check=False)


if __name__ == "__main__":
    main()
