"""Tiny portal client (urllib only): long-poll desired state, post observed state, join."""

from __future__ import annotations

import json
import ssl
import urllib.error
import urllib.request
from dataclasses import dataclass

from .state import DesiredState, loads


class PortalError(OSError):
    """The portal could not be reached or answered with an error."""


@dataclass
class Fetched:
    """Result of one long-poll: state is None when unchanged (304)."""

    state: DesiredState | None
    etag: str | None


class PortalClient:
    """Talks to /api/v1/agents/<node>/… with the node's bearer credential."""

    def __init__(self, server: str, node: str, credential: str, cafile: str | None = None,
                 verify: bool = True, timeout: float = 45.0):
        self.base = server.rstrip("/") + f"/api/v1/agents/{node}"
        self.credential = credential
        self.timeout = timeout
        self.context = ssl.create_default_context(cafile=cafile)
        if not verify:  # only for explicitly configured test setups
            self.context.check_hostname = False
            self.context.verify_mode = ssl.CERT_NONE

    def _request(self, method: str, url: str, body: dict | None = None,
                 headers: dict | None = None) -> tuple[int, dict, bytes]:
        if not url.startswith(("https://", "http://")):
            raise PortalError(f"refusing non-HTTP URL {url!r}")
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(url, data=data, method=method, headers={  # noqa: S310
            "Authorization": f"Bearer {self.credential}", "Accept": "application/json",
            **({"Content-Type": "application/json"} if data else {}), **(headers or {})})
        ctx = self.context if url.startswith("https:") else None
        try:
            with urllib.request.urlopen(req, timeout=self.timeout, context=ctx) as resp:  # noqa: S310
                return resp.status, dict(resp.headers), resp.read()
        except urllib.error.HTTPError as exc:
            if exc.code == 304:
                return 304, dict(exc.headers), b""
            raise PortalError(f"{method} {url}: HTTP {exc.code}") from exc
        except (urllib.error.URLError, TimeoutError, ConnectionError) as exc:
            raise PortalError(f"{method} {url}: {exc}") from exc

    def desired_state(self, etag: str | None, wait: int = 30) -> Fetched:
        """Long-poll; returns immediately when the generation differs from etag."""
        headers = {"If-None-Match": etag} if etag else {}
        status, hdrs, body = self._request("GET", f"{self.base}/desired-state?wait={wait}",
                                           headers=headers)
        if status == 304:
            return Fetched(None, etag)
        return Fetched(loads(body.decode()), hdrs.get("ETag") or hdrs.get("Etag"))

    def report(self, observed: dict) -> None:
        """POST the observed state (applied generation, per-tenant status, errors)."""
        self._request("POST", f"{self.base}/observed-state", body=observed)


def join(server: str, token: str, hostname: str, capabilities: dict,
         cafile: str | None = None, interfaces: list[dict] | None = None) -> dict:
    """Exchange a one-time join token for {"node": name, "credential": secret}."""
    client = PortalClient(server, "", token, cafile=cafile)
    url = server.rstrip("/") + "/api/v1/agents/join"
    _, _, body = client._request("POST", url, body={
        "token": token, "hostname": hostname, "capabilities": capabilities,
        "interfaces": interfaces or []})
    data = json.loads(body)
    if not data.get("node") or not data.get("credential"):
        raise PortalError("join answer lacks node or credential")
    return data
