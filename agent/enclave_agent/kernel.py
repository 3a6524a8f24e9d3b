"""The only module that touches the kernel: iproute2 batches, one nft transaction, sysctls."""

from __future__ import annotations

import json
import logging
import os
import re
import socket
import subprocess
from dataclasses import dataclass, field

from . import grammar, nftables
from .plan import (
    GROUP,
    PROTO,
    SYSCTLS,
    ActualLink,
    Capabilities,
    KernelState,
    Op,
    OpKind,
    addr_key,
    parse_alias,
)

FAILED_RE = re.compile(r"^Command failed -:(\d+)\s*$")
DIGEST_RE = re.compile(r'comment "digest=(\w+)"')
TABLE_NAMES = {"main": 254, "local": 255, "default": 253}
PROBE_NAME = "enclprobe0"
log = logging.getLogger("enclave_agent")


@dataclass
class ApplyResult:
    """Errors per tenant and node-wide errors of one apply."""

    tenant_errors: dict[int, list[str]] = field(default_factory=dict)
    node_errors: list[str] = field(default_factory=list)
    processes: int = 0
    aborted: bool = False  # a batch stopped without saying which line (ip exits on some errors)


def _run(args: list[str], stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(args, input=stdin, capture_output=True, text=True, check=False)


def _json(args: list[str]) -> list:
    proc = _run(args)
    if proc.returncode != 0:
        raise OSError(f"{' '.join(args)}: {proc.stderr.strip()}")
    return json.loads(proc.stdout or "[]")


def probe() -> Capabilities:
    """Find out once whether the kernel can do VRF, VXLAN and nftables (by trying)."""
    notes = []

    def try_link(kind: str) -> bool:
        proc = _run(
            ["ip", "-force", "-batch", "-"], f"link add {PROBE_NAME} group {GROUP} type {kind}\nlink del {PROBE_NAME}\n"
        )
        if proc.returncode != 0:
            notes.append(f"{kind.split()[0]}: {proc.stderr.strip().splitlines()[0]}")
        return proc.returncode == 0

    vrf = try_link("vrf table 4294967000")
    vxlan = try_link("vxlan id 1 dstport 4789")
    nft = _run(["nft", "list", "tables"]).returncode == 0
    if not nft:
        notes.append("nftables: `nft list tables` failed")
    return Capabilities(vrf=vrf, vxlan=vxlan, nftables=nft, kernel=os.uname().release, detail="; ".join(notes))


def _safe_name(name: object) -> bool:
    """Names read back from the kernel reach batch lines too: only grammar-clean ones do."""
    try:
        grammar.ifname(name)
    except grammar.GrammarError:
        log.warning("ignoring link %r: its name fails the grammar, so it is not ours", name)
        return False
    return True


def _ip_reads(commands: list[str], family: str = "") -> list[list]:
    """Several `ip -j` reads in one process (`-batch`): one JSON list per command, in order.

    Each `ip` a read starts costs a node a fork and an exec (and the VRF guest's emulated CPU a sixth of
    a second), and a full read needs five of them."""
    args = ["ip", *([family] if family else []), "-d", "-j", "-batch", "-"]
    proc = _run(args, "".join(f"{command}\n" for command in commands))
    if proc.returncode != 0:
        raise OSError(f"ip {' | '.join(commands)}: {proc.stderr.strip()}")
    decoder, text, pos = json.JSONDecoder(), proc.stdout, 0
    out: list[list] = []
    while len(out) < len(commands):
        while pos < len(text) and text[pos].isspace():
            pos += 1
        value, pos = decoder.raw_decode(text, pos)  # ValueError when ip printed fewer lists
        out.append(value)
    return out


def links() -> dict[str, ActualLink]:
    """The links the agent owns (its device group), by name: one `ip` process."""
    return _owned(_json(["ip", "-d", "-j", "link", "show", "group", str(GROUP)]))


def _owned(items: list) -> dict[str, ActualLink]:
    found = {}
    for item in items:
        if "ifname" not in item or not _safe_name(item["ifname"]):
            continue
        info = item.get("linkinfo", {})
        tenant, digest = parse_alias(item.get("ifalias"))
        found[item["ifname"]] = ActualLink(
            name=item["ifname"],
            kind=info.get("info_kind", ""),
            tenant=tenant,
            digest=digest,
            up="UP" in item.get("flags", ()),
            table=info.get("info_data", {}).get("table"),
        )
    return found


def _addrs(items: list, names: set[str]) -> dict[str, frozenset[str]]:
    out = {}
    for item in items:
        if item.get("ifname") not in names:
            continue
        out[item["ifname"]] = frozenset(
            addr_key(f"{a['local']}/{a['prefixlen']}", a.get("scope", "global"))
            for a in item.get("addr_info", ())
            if a.get("scope") != "link"
        )
    return out


def _routes(items: list) -> frozenset[tuple[int, str, str]]:
    out = set()
    for item in items:
        table = item.get("table", "main")
        table = TABLE_NAMES.get(table) or int(table)
        out.add((table, item.get("dst", ""), item.get("dev", "")))
    return frozenset(out)


def _nft_digest(need_portal: bool) -> str | None:
    # JSON output of nft 1.0.6 drops table comments, so read the terse text form.
    proc = _run(["nft", "-t", "list", "table", *nftables.AGENT_TABLE])
    if proc.returncode != 0:
        return None
    if need_portal and _run(["nft", "-t", "list", "table", *nftables.PORTAL_TABLE]).returncode:
        return None
    found = DIGEST_RE.search(proc.stdout)
    return found.group(1) if found else None


def _local_rule(rules: list) -> tuple[bool, bool]:
    """(table local moved to 32765, table local still at pref 0)."""
    local = [r.get("priority") for r in rules if r.get("table") == "local"]
    return 32765 in local, 0 in local


def read(full: bool, need_portal_table: bool = True) -> KernelState:
    """Owned links always; addresses, routes and rules too on a full read: two `ip` processes, one or two `nft`."""
    commands = [f"link show group {GROUP}", "rule show"]  # `ip rule` and `ip route` read IPv4 unless told
    if full:
        commands += ["addr show", f"route show table all proto {PROTO}"]
    found = _ip_reads(commands)
    state = KernelState(links=_owned(found[0]))
    state.sysctls = {k: _read_sysctl(k) for k in SYSCTLS}
    state.nft_digest = _nft_digest(need_portal_table)
    v4, v6 = _local_rule(found[1]), _local_rule(_ip_reads(["rule show"], "-6")[0])
    state.local_rule_moved, state.local_rule_pref0 = (v4[0], v6[0]), (v4[1], v6[1])
    if full:
        state.addrs = _addrs(found[2], set(state.links))
        state.routes = _routes(found[3])
    return state


def _read_sysctl(key: str) -> str:
    try:
        with open(f"/proc/sys/{key}") as fh:
            return fh.read().strip()
    except OSError:
        return ""


def _batch(tool: list[str], lines: list[tuple[str, int | None]], res: ApplyResult) -> set:
    """Run one forced batch; map each failed line back to its tenant (None = node)."""
    if not lines:
        return set()
    proc = _run([*tool, "-force", "-batch", "-"], "".join(f"{text}\n" for text, _ in lines))
    res.processes += 1
    failed, pending = set(), []
    for line in proc.stderr.splitlines():
        match = FAILED_RE.match(line)
        if not match:
            pending.append(line.strip())
            continue
        text, owner = lines[int(match.group(1)) - 1]
        msg = f"{text}: {' '.join(pending) or 'failed'}"
        pending = []
        failed.add(owner)
        if owner is None:
            res.node_errors.append(msg)
        else:
            res.tenant_errors.setdefault(owner, []).append(msg)
    if proc.returncode != 0 and not failed:
        owners = {owner for _, owner in lines}
        owner = next(iter(owners))  # lines is not empty
        if len(owners) == 1 and owner is not None:  # an isolated batch: we know whose it is
            res.tenant_errors.setdefault(owner, []).append(proc.stderr.strip()[:500])
            return {owner}
        res.aborted = True
        res.node_errors.append(f"{tool[0]} batch aborted: {proc.stderr.strip()[:500]}")
    return failed


def _apply_node(op: Op, res: ApplyResult) -> None:
    if op.kind == OpKind.SYSCTL:
        for key, value in op.sysctl:
            try:
                with open(f"/proc/sys/{key}", "w") as fh:
                    fh.write(value)
            except OSError as exc:
                res.node_errors.append(f"sysctl {key}={value}: {exc}")
    elif op.kind == OpKind.RULES:
        _batch(["ip", "-4"], [(x, None) for x in op.ip], res)
        _batch(["ip", "-6"], [(x, None) for x in op.ip6], res)
    elif op.kind == OpKind.NFTABLES:
        proc = _run(["nft", "-f", "-"], op.nft)
        res.processes += 1
        if proc.returncode != 0:
            res.node_errors.append(f"nft transaction failed: {proc.stderr.strip()[:1000]}")


def apply(ops: list[Op], isolate: bool = False) -> ApplyResult:
    """Node ops first, then every link change in ONE ip batch, fdb in ONE bridge batch.

    With isolate=True (only after a batch aborted) each tenant gets its own batches, so one
    tenant's bad line cannot stop the others.
    """
    res = ApplyResult()
    for op in ops:
        if op.kind in (OpKind.SYSCTL, OpKind.RULES, OpKind.NFTABLES):
            _apply_node(op, res)
    link_ops = [op for op in ops if op.kind in (OpKind.DELETE, OpKind.CREATE)]
    groups = [link_ops]
    if isolate:
        by_tenant: dict[int | None, list[Op]] = {}
        for op in link_ops:
            by_tenant.setdefault(op.tenant, []).append(op)
        groups = list(by_tenant.values())
    for group in groups:
        failed = _batch(["ip"], [(x, op.tenant) for op in group for x in op.ip], res)
        fdb = [(x, op.tenant) for op in group for x in op.bridge if op.tenant not in failed]
        failed |= _batch(["bridge"], fdb, res)
        finish = [(x, op.tenant) for op in group for x in op.finish if op.tenant not in failed]
        _batch(["ip"], finish, res)
    return res


def present(names: set[str]) -> frozenset[str]:
    """Which of these interface names exist here (ioctl, no process)."""
    found = set()
    for name in names:
        try:
            socket.if_nametoindex(name)
            found.add(name)
        except OSError:
            pass
    return frozenset(found)


def interfaces() -> list[dict]:
    """Global IPv4 addresses of real interfaces (+ default gateway): sent to the portal at join."""
    gateways = {r.get("dev"): r.get("gateway") for r in _json(["ip", "-4", "-j", "route", "show", "default"])}
    found = []
    for item in _json(["ip", "-4", "-j", "addr", "show"]):
        if item.get("ifname") == "lo" or item.get("group", "default") == str(GROUP):
            continue
        for a in item.get("addr_info", ()):
            if a.get("scope") == "global":
                record = {
                    "name": item["ifname"],
                    "address": f"{a['local']}/{a['prefixlen']}",
                    "gateway": gateways.get(item["ifname"]),
                }
                try:  # the portal refuses what fails the grammar: do not send it
                    found.append(grammar.interface(record))
                except grammar.GrammarError as exc:
                    log.warning("not reporting interface %r: %s", item["ifname"], exc)
    return found


def teardown() -> ApplyResult:
    """Remove everything the agent owns: links by device group, routes by proto, its tables."""
    res = ApplyResult()
    owned = links()
    tables = {a.table for a in owned.values() if a.kind == "vrf" and a.table}
    lines: list[tuple[str, int | None]] = [(f"route flush table {t}", None) for t in sorted(tables)]
    lines += [(f"link del group {GROUP}", None)] if owned else []
    _batch(["ip"], lines, res)
    _batch(["ip"], [(f"route flush table all proto {PROTO}", None)], res)
    text = "".join(
        f"add table {f} {n}\ndelete table {f} {n}\n" for f, n in (nftables.PORTAL_TABLE, nftables.AGENT_TABLE)
    )
    if _run(["nft", "-f", "-"], text).returncode != 0:
        res.node_errors.append("nft teardown failed")
    return res
