"""One reconcile pass: read the kernel, plan, apply, report (the portal loop is poll.py)."""

from __future__ import annotations

import fcntl
import json
import logging
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from . import ibports, kernel, nftables, wire
from .config import DEFAULT_STATE_DIR
from .plan import Capabilities, KernelState, Plan, plan, projected
from .state import DesiredState, StateError, TenantStatus, loads

# `apply` (break-glass, tests, the VRF guest) needs no HTTP client: only the portal loop imports it.
if TYPE_CHECKING:
    from .client import PortalClient

log = logging.getLogger("enclave_agent")


@dataclass
class Report:
    """What one pass did; posted to the portal as the observed state."""

    generation: int
    full: bool
    ops: int
    processes: int
    seconds: float
    capabilities: dict
    tenants: dict[str, dict] = field(default_factory=dict)
    node_errors: list[str] = field(default_factory=list)
    ib_ports: list[dict] = field(default_factory=list)  # schema 2, additive: this node's IB port GUIDs
    reads: list[int] = field(default_factory=lambda: list(wire.READS))  # the document schemas this agent reads

    def to_dict(self) -> dict:
        """Plain dict for JSON (shallow: asdict's deep copy is slow at thousands of tenants)."""
        return dict(vars(self))

    def ok(self) -> bool:
        """True when nothing failed on the node or any tenant."""
        return not self.node_errors and all(t["status"] == TenantStatus.READY for t in self.tenants.values())


REPORT_AGAIN_AFTER = 600.0  # an unchanged report is sent again this often (the long-poll is the heartbeat)
PASS_MECHANICS = frozenset({"full", "ops", "processes", "seconds"})  # posted with news, never news alone


class Reporter:
    """Posts a pass's report when it says something new, and an unchanged one only every REPORT_AGAIN_AFTER.

    A node passes after every long-poll (30 s); 2,000 nodes posting 1,000 unchanged tenant entries each
    would keep 1.2-1.6 web cores busy (18-24 ms a report, benchmarks/observed_report.py)."""

    def __init__(self, again_after: float = REPORT_AGAIN_AFTER, clock: Callable[[], float] = time.monotonic):
        self.again_after, self.clock, self.sent_at = again_after, clock, 0.0
        self.sent: dict | None = None

    def send(self, client: PortalClient, report: dict) -> bool:
        """True when posted; a PortalError leaves it unsent, so the next pass posts it."""
        news = {key: value for key, value in report.items() if key not in PASS_MECHANICS}
        now = self.clock()
        if news == self.sent and now - self.sent_at < self.again_after:
            return False
        client.report(report)
        self.sent, self.sent_at = news, now
        return True

    def forget(self) -> None:
        """Post the next report whatever it says."""
        self.sent = None


def write_atomic(path: Path, text: str, mode: int = 0o644) -> None:
    """Write via a temp file and rename so readers never see half a file."""
    tmp = path.with_suffix(path.suffix + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    os.fchmod(fd, mode)  # a stale temp file keeps its old mode otherwise
    with os.fdopen(fd, "w") as fh:
        fh.write(text)
    os.replace(tmp, path)


class Agent:
    """Reconciles the kernel toward desired state; one instance per node."""

    def __init__(self, state_dir: Path = DEFAULT_STATE_DIR, full_every: float = 300.0):
        self.dir = Path(state_dir)
        self.dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        self.full_every = full_every
        self.caps: Capabilities = kernel.probe()
        self.ib_ports = ibports.read()
        self.cache: KernelState | None = None
        self.last_full = 0.0
        self._persisted: DesiredState | None = None
        self.refused: str | None = None  # why the portal's newest document was not applied
        self.reporter = Reporter()
        if not self.caps.vrf:
            log.error(
                "kernel %s lacks VRF support (%s): tenant networks will NOT be built (fail closed)",
                self.caps.kernel,
                self.caps.detail,
            )

    def compute(self, desired: DesiredState, full: bool) -> tuple[Plan, tuple[str, str]]:
        """Read (or reuse) actual state and return the plan; no changes made."""
        nft = nftables.transaction(desired)
        if full or self.cache is None:
            actual = kernel.read(full=True, need_portal_table=bool(desired.nftables.strip()))
        else:
            actual = self.cache
        actual.present = kernel.present({i.name for i in desired.node.interfaces} | set(desired.node.ipoib_parents))
        return plan(actual, desired, self.caps, nft), nft

    def run_pass(self, desired: DesiredState, full: bool = False) -> Report:
        """One reconcile pass under the node lock; any error forces a full sync next time."""
        start = time.monotonic()
        full = full or self.cache is None or time.monotonic() - self.last_full > self.full_every
        with open(self.dir / "lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            the_plan, nft = self.compute(desired, full)
            result = kernel.apply(the_plan.ops)
            if result.aborted:
                # ip stopped without naming the line: re-read, re-plan, one batch per tenant.
                log.warning("batch aborted (%s); retrying tenant by tenant", result.node_errors)
                spawned = result.processes
                the_plan, nft = self.compute(desired, full=True)
                result = kernel.apply(the_plan.ops, isolate=True)
                result.processes += spawned
        report = self._report(desired, the_plan, result, full, time.monotonic() - start)
        # Blocked tenants (no VRF, missing underlay) are stable; only real errors force a re-read.
        failed = {int(t) for t, v in report.tenants.items() if v["status"] == TenantStatus.FAILED}
        if report.node_errors or failed:
            self.cache = None  # force a full read next pass
        else:
            self.cache = projected(self.cache or KernelState(), desired, self.caps, nft[0], failed)
        if full:
            self.last_full = time.monotonic()
            self.ib_ports = ibports.read()  # HCAs come and go with hardware changes, not per pass
        self._persist(desired, report)
        return report

    def _report(
        self, desired: DesiredState, the_plan: Plan, result: kernel.ApplyResult, full: bool, seconds: float
    ) -> Report:
        report = Report(
            desired.generation,
            full,
            len(the_plan.ops),
            result.processes,
            round(seconds, 4),
            asdict(self.caps),
            node_errors=result.node_errors,
            ib_ports=self.ib_ports,
        )
        for t in desired.tenants:
            errors = result.tenant_errors.get(t.id, [])
            if t.id in the_plan.blocked:
                entry = {"status": TenantStatus.NOT_READY, "errors": [the_plan.blocked[t.id]]}
            elif errors:
                entry = {"status": TenantStatus.FAILED, "errors": errors}
            elif result.node_errors:
                entry = {"status": TenantStatus.NOT_READY, "errors": ["node-wide error"]}
            else:
                entry = {"status": TenantStatus.READY, "errors": []}
            report.tenants[str(t.id)] = entry
        for tid, reason in desired.invalid:
            report.tenants[str(tid)] = {"status": TenantStatus.FAILED, "errors": [f"invalid tenant entry: {reason}"]}
        return report

    def _persist(self, desired: DesiredState, report: Report) -> None:
        # Serialising thousands of tenants is not free: only when the document changed.
        if desired != self._persisted:
            write_atomic(self.dir / "desired.json", desired.to_json())
            self._persisted = desired
        write_atomic(self.dir / "status.json", json.dumps(report.to_dict(), separators=(",", ":")))

    def last_desired(self) -> DesiredState | None:
        """The last desired state applied (survives restarts and control-plane outages)."""
        try:
            return loads((self.dir / "desired.json").read_text())
        except (OSError, StateError, ValueError):
            return None
