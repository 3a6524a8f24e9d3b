"""Tiny portal client (urllib only): long-poll desired state, post observed state, join, renew.

The credential only ever travels to the configured portal: https (http only to loopback), and
redirects are refused rather than followed, because urllib would copy the Authorization header
to wherever the redirect points.
"""

from __future__ import annotations

import ipaddress
import json
import re
import ssl
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass

from . import grammar
from .state import DesiredState, StateError, loads

SECRET_RE = re.compile(r"[A-Za-z0-9_-]{16,200}")


class PortalError(OSError):
    """The portal could not be reached or answered with an error."""

    def __init__(self, message: str, retry_after: float | None = None, status: int | None = None):
        super().__init__(message)
        self.retry_after = retry_after
        self.status = status


class DocumentRefused(StateError):
    """The portal sent a desired state that fails validation; nothing of it is applied."""

    def __init__(self, reason: str, etag: str | None):
        super().__init__(reason)
        self.etag = etag


@dataclass
class Fetched:
    """Result of one long-poll: state is None when unchanged (304)."""

    state: DesiredState | None
    etag: str | None


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_server(server: str) -> str:
    """The portal's base URL: https, or http only to loopback; no credentials, query or fragment."""
    parts = urllib.parse.urlsplit(server)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise PortalError(f"refusing portal URL {server!r}: not an http(s) URL")
    if parts.username or parts.password or parts.query or parts.fragment:
        raise PortalError(f"refusing portal URL {server!r}: no credentials, query or fragment")
    if parts.scheme == "http" and not _loopback(parts.hostname):
        raise PortalError(f"refusing portal URL {server!r}: http:// only to loopback, use https://")
    return server.rstrip("/")


def check_secret(value: object, what: str) -> str:
    """A token or credential as the portal issues them (it goes into an HTTP header)."""
    if not isinstance(value, str) or not SECRET_RE.fullmatch(value):
        raise PortalError(f"the portal answered a malformed {what}")
    return value


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Refuse every redirect: following one would hand the credential to the new location."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        raise PortalError(f"{req.get_method()} {req.full_url}: the portal answered {code} to "
                          f"{newurl}; refusing to follow a redirect with the credential", status=code)


def _retry_after(headers) -> float | None:
    try:
        return max(0.0, float(headers.get("Retry-After")))
    except (TypeError, ValueError):
        return None


class PortalClient:
    """Talks to /api/v1/agents/<node>/… with the node's bearer credential."""

    def __init__(self, server: str, node: str, credential: str, cafile: str | None = None,
                 verify: bool = True, timeout: float = 45.0):
        self.server = check_server(server)
        self.base = self.server + f"/api/v1/agents/{grammar.node_name(node)}" if node else ""
        self.credential = credential
        self.timeout = timeout
        self.context = ssl.create_default_context(cafile=cafile)
        if not verify:  # only for explicitly configured test setups
            self.context.check_hostname = False
            self.context.verify_mode = ssl.CERT_NONE
        self.opener = urllib.request.build_opener(_NoRedirect,
                                                  urllib.request.HTTPSHandler(context=self.context))

    def _request(self, method: str, url: str, body: dict | None = None,
                 headers: dict | None = None, auth: bool = True) -> tuple[int, dict, bytes]:
        if not url.startswith(self.server + "/"):
            raise PortalError(f"refusing URL {url!r} outside the portal {self.server}")
        data = json.dumps(body).encode() if body is not None else None
        sent = {"Accept": "application/json", **({"Content-Type": "application/json"} if data else {}),
                **({"Authorization": f"Bearer {self.credential}"} if auth else {}), **(headers or {})}
        req = urllib.request.Request(url, data=data, method=method, headers=sent)  # noqa: S310
        try:
            with self.opener.open(req, timeout=self.timeout) as resp:
                return resp.status, dict(resp.headers), resp.read()
        except urllib.error.HTTPError as exc:
            if exc.code == 304:
                return 304, dict(exc.headers), b""
            raise PortalError(f"{method} {url}: HTTP {exc.code}", _retry_after(exc.headers),
                              exc.code) from exc
        except (urllib.error.URLError, TimeoutError, ConnectionError) as exc:
            raise PortalError(f"{method} {url}: {exc}") from exc

    def desired_state(self, etag: str | None, wait: int = 30) -> Fetched:
        """Long-poll; returns immediately when the generation differs from etag."""
        headers = {"If-None-Match": etag} if etag else {}
        status, hdrs, body = self._request("GET", f"{self.base}/desired-state?wait={wait}",
                                           headers=headers)
        if status == 304:
            return Fetched(None, etag)
        tag = hdrs.get("ETag") or hdrs.get("Etag")
        try:
            return Fetched(loads(body.decode(errors="replace")), tag)
        except StateError as exc:
            raise DocumentRefused(str(exc), tag) from exc

    def report(self, observed: dict) -> None:
        """POST the observed state (applied generation, per-tenant status, errors)."""
        self._request("POST", f"{self.base}/observed-state", body=observed)

    def rotate(self) -> dict:
        """Exchange the current credential for a new one: {"credential", "expires_in", ...}."""
        _, _, body = self._request("POST", f"{self.base}/credential", body={})
        data = _json_object(body)
        check_secret(data.get("credential"), "credential")
        if not isinstance(data.get("expires_in"), int | float) or data["expires_in"] <= 0:
            raise PortalError("the portal answered a credential without expires_in")
        return data


def _json_object(body: bytes) -> dict:
    try:
        data = json.loads(body)
    except ValueError as exc:
        raise PortalError(f"the portal answered non-JSON: {exc}") from None
    if not isinstance(data, dict):
        raise PortalError("the portal answered JSON that is not an object")
    return data


def join(server: str, token: str, hostname: str, capabilities: dict,
         cafile: str | None = None, interfaces: list[dict] | None = None) -> dict:
    """Exchange a one-time join token for {"node": name, "credential": secret, ...}."""
    client = PortalClient(server, "", "", cafile=cafile)
    _, _, body = client._request("POST", client.server + "/api/v1/agents/join", auth=False, body={
        "token": token, "hostname": hostname, "capabilities": capabilities,
        "interfaces": interfaces or []})
    data = _json_object(body)
    if not data.get("node") or not data.get("credential"):
        raise PortalError("join answer lacks node or credential")
    try:
        grammar.node_name(data["node"])
    except grammar.GrammarError as exc:
        raise PortalError(f"join answer: {exc}") from None
    check_secret(data["credential"], "credential")
    return data
