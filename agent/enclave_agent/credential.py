"""The node credential on disk (credential.json, 0600) and when to renew it."""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

RENEW_AT = 2 / 3  # renew once two thirds of the lifetime have passed


@dataclass(frozen=True)
class Credential:
    """Where the portal is, which node we are, the secret and its lifetime on our own clock."""

    server: str
    node: str
    credential: str
    issued: float | None = None  # seconds since the epoch when we received it
    expires: float | None = None

    def renewal_due(self, now: float) -> bool:
        """True when a fresh credential should be fetched (always for a lifetime we never learnt)."""
        if self.issued is None or self.expires is None:
            return True
        return now >= self.issued + (self.expires - self.issued) * RENEW_AT

    def renewed(self, secret: str, now: float, expires_in: float) -> Credential:
        """The same node with a new secret valid for expires_in seconds from now."""
        return Credential(self.server, self.node, secret, now, now + expires_in)


def load(path: Path) -> Credential:
    """Read credential.json (written by `join` or a renewal)."""
    data = json.loads(Path(path).read_text())
    return Credential(data["server"], data["node"], data["credential"], data.get("issued"), data.get("expires"))


def save(path: Path, cred: Credential) -> None:
    """Write credential.json atomically, readable by root only."""
    path = Path(path)
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(fd, 0o600)  # a stale temp file keeps its old mode otherwise
    with os.fdopen(fd, "w") as fh:
        fh.write(json.dumps(asdict(cred)))
    os.replace(tmp, path)
