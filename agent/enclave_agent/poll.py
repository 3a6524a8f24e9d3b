"""The long-poll loop against the portal: fail static, credential renewal, reports only when news."""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path

from . import credential
from .agent import Agent, Report
from .client import DocumentRefused, PortalClient, PortalError
from .state import DesiredState, StateError

log = logging.getLogger("enclave_agent")


def loop(
    agent: Agent,
    client: PortalClient,
    wait: int = 30,
    retry_max: float = 60.0,
    stop: Callable[[], bool] = lambda: False,
    credential_file: Path | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> None:
    """Long-poll forever; keep the last state when the portal is down or sends a bad document (fail static).

    `sleep` waits between tries to reach the portal (a test passes a clock of its own: hours in no time)."""
    desired, etag, backoff = agent.last_desired(), None, 1.0
    if desired is not None:
        _safe_pass(agent, desired, full=True, client=None)
    while not stop():
        if credential_file is not None:
            renew_credential(client, credential_file)
        try:
            fetched = client.desired_state(etag, wait=wait)
            backoff = 1.0
        except DocumentRefused as exc:
            # Fail closed: apply nothing of it, say why, and wait for the portal's next change.
            log.error("desired state refused, keeping the last applied one: %s", exc)
            agent.refused, etag = str(exc), exc.etag
            _safe_pass(agent, desired, full=False, client=client)
            continue
        except (PortalError, StateError) as exc:
            # Unheard, the portal may mark this node silent (NotReady): post the next report even unchanged.
            agent.reporter.forget()
            pause = max(backoff, getattr(exc, "retry_after", None) or 0.0)
            pause *= 1 + random.random() / 2  # noqa: S311 - jitter, so refused agents do not return together
            log.warning("desired state unavailable (%s); keeping last state, retry in %.0fs", exc, pause)
            sleep(pause)
            backoff = min(backoff * 2, retry_max)
            if desired is not None and agent.cache is None:
                _safe_pass(agent, desired, full=True, client=None)
            continue
        if fetched.state is not None:
            desired, etag, agent.refused = fetched.state, fetched.etag, None
        if desired is not None:
            _safe_pass(agent, desired, full=False, client=client)


def renew_credential(client: PortalClient, path: Path) -> None:
    """Rotate the node credential once it is due; persist the new one before using it."""
    try:
        cred = credential.load(path)
    except (OSError, ValueError, KeyError) as exc:
        log.warning("cannot read %s: %s", path, exc)
        return
    if not cred.renewal_due(time.time()):
        return
    try:
        data = client.rotate()
    except PortalError as exc:  # the old one stays valid; try again next pass
        log.warning("credential renewal failed: %s", exc)
        return
    credential.save(path, cred.renewed(data["credential"], time.time(), float(data["expires_in"])))
    client.credential = data["credential"]
    log.info("node credential renewed; valid for %.0f days", data["expires_in"] / 86400)


def _safe_pass(agent: Agent, desired: DesiredState | None, full: bool, client: PortalClient | None) -> None:
    if desired is None:  # nothing applied yet: only say why
        report = Report(0, full, 0, 0, 0.0, asdict(agent.caps), ib_ports=agent.ib_ports)
    else:
        try:
            report = agent.run_pass(desired, full=full)
        except Exception as exc:  # a bug in one pass must not kill the node's agent
            log.exception("reconcile pass failed")
            agent.cache = None
            report = Report(
                desired.generation, full, 0, 0, 0.0, asdict(agent.caps), node_errors=[f"pass crashed: {exc!r}"]
            )
    if agent.refused:
        report.node_errors = [*report.node_errors, agent.refused]
    log.info("generation %s: %s ops, ok=%s", report.generation, report.ops, report.ok())
    if client is not None:
        try:
            agent.reporter.send(client, report.to_dict())
        except PortalError as exc:
            log.warning("could not report observed state: %s", exc)
