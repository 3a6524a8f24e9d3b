"""The fabric agent's pass and loop: pull desired partitions, realize them on the SM, report the tables.

The same pull model as the node agent: the agent asks, the portal never reaches in. A document that
fails fabric_wire.parse_desired is refused whole and the last applied one stays in force (the SM
keeps its partitions.conf); the report says why.
"""

from __future__ import annotations

import json
import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .. import credential
from .. import fabric_wire as fw
from ..agent import Reporter, write_atomic
from ..client import PortalClient, PortalError, _header, _json_object, check_secret
from .realizer import RealizerError, SubnetManager, changed_ports, port_problems

log = logging.getLogger("enclave_fabric_agent")
MAX_ERRORS = 200  # a report names this many problems, then counts the rest


class FabricRefused(PortalError):
    """The portal's desired document failed the wire grammar; nothing of it was applied."""

    def __init__(self, reason: str, etag: str | None):
        super().__init__(reason)
        self.etag = etag


class FabricClient(PortalClient):
    """Talks to /api/v1/fabric-agents/<fabric>/… with the fabric's bearer credential."""

    def __init__(self, server: str, fabric: str, credential: str, cafile: str | None = None, timeout: float = 45.0):
        super().__init__(server, "", credential, cafile=cafile, timeout=timeout)
        if not isinstance(fabric, str) or not fw.FABRIC_RE.fullmatch(fabric):
            raise PortalError(f"refusing fabric name {fabric!r:.60}: not a DNS label")
        self.base = f"{self.server}/api/v1/fabric-agents/{fabric}"

    def desired(self, etag: str | None) -> tuple[dict | None, str | None]:
        """The desired document checked whole, or None when unchanged since etag (304)."""
        status, hdrs, body = self._request(
            "GET", f"{self.base}/desired", headers={"If-None-Match": etag} if etag else {}
        )
        if status == 304:
            return None, etag
        tag = _header(hdrs, "ETag")
        try:
            return fw.parse_desired(json.loads(body)), tag
        except (ValueError, fw.FabricError) as exc:
            raise FabricRefused(f"desired state refused: {exc}", tag) from None

    def report(self, observed: dict) -> None:
        """POST the report (tables, errors, SM hardening facts)."""
        self._request("POST", f"{self.base}/report", body=observed)


def join(server: str, token: str, hostname: str, cafile: str | None = None) -> dict:
    """Exchange a one-time join token for {"fabric": name, "credential": secret, "expires_in": s}."""
    client = PortalClient(server, "", "", cafile=cafile)
    try:
        url = client.server + "/api/v1/fabric-agents/join"
        _, _, body = client._request("POST", url, auth=False, body={"token": token, "hostname": hostname})
    finally:
        client.close()
    data = _json_object(body)
    if not isinstance(data.get("fabric"), str) or not fw.FABRIC_RE.fullmatch(data["fabric"]):
        raise PortalError("join answer lacks a valid fabric name")
    check_secret(data.get("credential"), "credential")
    return data


@dataclass
class FabricAgent:
    """Drives one subnet manager toward the portal's desired partitions."""

    sm: SubnetManager
    state_dir: Path
    settle: float = 30.0  # how long a pass waits for the fabric to program a change
    poll: float = 0.2
    reporter: Reporter = field(default_factory=Reporter)
    applied: dict | None = None
    reprogram_every: float = 600.0  # an SM restart is not free: at most this often
    reprogrammed: float = float("-inf")
    suspects: set = field(default_factory=set)  # ports whose tables were wrong on the last pass

    def __post_init__(self) -> None:
        self.state_dir = Path(self.state_dir)
        self.state_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        self.applied = self.applied or self.last_applied()

    def last_applied(self) -> dict | None:
        """The last document applied (survives restarts and portal outages), re-checked."""
        try:
            return fw.parse_desired(json.loads((self.state_dir / "desired.json").read_text()))
        except (OSError, ValueError, fw.FabricError):
            return None

    def run_pass(self, desired: dict | None, refused: str | None = None) -> dict:
        """Apply desired (or keep the last applied), read the fabric back, return the report."""
        errors = [refused] if refused else []
        changed: set[str] | None = set()
        target, before = desired or self.applied, self.applied  # unchanged: re-apply (drift)
        own = self.sm.self_guids()
        if target is not None:
            try:
                done = self.sm.apply(target)
                errors += done.notices
                if done.changed:  # drift restored: any port may be off, so wait for all of them
                    changed = changed_ports(before, target, own) if not done.notices else None
                if target is not self.applied:
                    self.applied = target
                    write_atomic(self.state_dir / "desired.json", json.dumps(target), 0o600)
            except RealizerError as exc:
                errors.append(f"applying generation {target[fw.GENERATION]}: {exc}")
        if changed != set():
            self._wait_programmed(changed, own)
        tables, problems = self._read(None, own)
        if changed == set() and self._tampered(tables, problems) and self._reprogram(errors):
            self._wait_programmed(None, own)
            tables, problems = self._read(None, own)
        return self._report(desired, errors + list(problems.values()), tables)

    def _tampered(self, tables: dict, problems: dict[str, str]) -> bool:
        """Ports on the fabric whose tables differ, on two passes running, although the SM's configuration
        did not change: written past the SM (an SMP from a node's root without M_Key), which OpenSM does
        not notice. (One pass is not enough: a port that just came up waits for the SM's next sweep.)"""
        wrong = {port for port in problems if port in tables}
        suspects, self.suspects = self.suspects, wrong
        return bool(wrong & suspects)

    def _reprogram(self, errors: list[str]) -> bool:
        """Ask the SM to write every table again, at most once per `reprogram_every` seconds."""
        if time.monotonic() - self.reprogrammed < self.reprogram_every:
            return False
        self.reprogrammed = time.monotonic()
        try:
            done = self.sm.reprogram()
        except RealizerError as exc:
            errors.append(f"reprogramming the fabric: {exc}")
            return False
        if done:
            errors.append("drift: P_Key tables were changed on the fabric, not through the SM; it reprogrammed them")
        return done

    def _read(self, only: set[str] | None, own: set[str]) -> tuple[dict[str, list[int]], dict[str, str]]:
        """Tables (all, or of `only`) and, by port, where they differ from the applied document."""
        try:
            tables = self.sm.observe(only)
        except RealizerError as exc:
            return {}, {"": str(exc)}
        return tables, port_problems(self.applied, tables, own, only) if self.applied else {}

    def _wait_programmed(self, ports: set[str] | None, own: set[str]) -> None:
        """Until the changed ports (None: all) hold their desired tables, or `settle` seconds passed."""
        deadline = time.monotonic() + self.settle
        while self._read(ports, own)[1] and time.monotonic() < deadline:
            time.sleep(self.poll)

    def _report(self, desired: dict | None, errors: list[str], tables: dict[str, list[int]]) -> dict:
        try:
            sm = self.sm.hardening()
        except RealizerError as exc:
            sm, errors = {"kind": self.sm.kind}, [*errors, str(exc)]
        errors = [*errors, *self.sm.problems()]
        if len(errors) > MAX_ERRORS:
            errors = [*errors[:MAX_ERRORS], f"... and {len(errors) - MAX_ERRORS} more"]
        latest = desired or self.applied
        return {
            fw.SCHEMA: fw.SCHEMA_VERSION,
            fw.READS: [fw.SCHEMA_VERSION],
            fw.GENERATION: latest[fw.GENERATION] if latest else 0,
            fw.APPLIED: self.applied[fw.GENERATION] if self.applied else 0,
            fw.ERRORS: errors,
            fw.PORTS: {guid: [f"0x{entry:04x}" for entry in table] for guid, table in sorted(tables.items())},
            fw.SM: sm,
        }


def one_pass(agent: FabricAgent, client: FabricClient, etag: str | None) -> tuple[dict, str | None]:
    """Fetch, apply, report once; returns the report and the ETag to send next time."""
    refused = None
    try:
        desired, etag = client.desired(etag)
    except FabricRefused as exc:
        desired, refused, etag = None, str(exc), exc.etag
    report = agent.run_pass(desired, refused)
    agent.reporter.send(client, report)
    return report, etag


def loop(
    agent: FabricAgent,
    client: FabricClient,
    interval: float = 10.0,
    stop: Callable[[], bool] = lambda: False,
    credential_file: Path | None = None,
) -> None:
    """Pass every `interval` seconds (each pass also restores drift); back off while the portal is away."""
    etag, backoff = None, 1.0
    while not stop():
        if credential_file is not None:
            renew(client, credential_file)
        try:
            report, etag = one_pass(agent, client, etag)
            backoff = 1.0
            log.info("generation %s applied, %d errors", report[fw.APPLIED], len(report[fw.ERRORS]))
            time.sleep(interval)
        except PortalError as exc:
            agent.reporter.forget()
            pause = max(backoff, exc.retry_after or 0.0) * (1 + random.random() / 2)  # noqa: S311 - jitter
            log.warning("portal unavailable (%s); the SM keeps the last applied partitions", exc)
            time.sleep(pause)
            backoff = min(backoff * 2, 60.0)


def renew(client: FabricClient, path: Path) -> None:
    """Rotate the fabric credential once due; persist the new one before using it."""
    cred = credential.load(path)
    if not cred.renewal_due(time.time()):
        return
    try:
        data = client.rotate()
    except PortalError as exc:  # the old one stays valid; next pass tries again
        log.warning("credential renewal failed: %s", exc)
        return
    credential.save(path, cred.renewed(data["credential"], time.time(), float(data["expires_in"])))
    client.credential = data["credential"]
