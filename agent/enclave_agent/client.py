"""Tiny portal client (stdlib only): long-poll desired state, post observed state, join, renew.

The credential only ever travels to the configured portal: https (http only to loopback), and
redirects are refused rather than followed (a redirect would carry the Authorization header to
wherever it points). One HTTP/1.1 connection is kept alive between requests: an agent renews its
long-poll every half minute, and a TCP and TLS handshake each time cost the portal as much as the
poll itself at 2,000 nodes. The agent connects directly: proxy variables in the environment are
for a node's internet traffic, not for its portal.
"""

from __future__ import annotations

import http.client
import ipaddress
import json
import re
import ssl
import urllib.parse
from dataclasses import dataclass

from . import grammar, wire
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


def _retry_after(headers: dict) -> float | None:
    try:
        return max(0.0, float(headers.get("Retry-After", "")))  # absent: ValueError, as for junk
    except (TypeError, ValueError):
        return None


class PortalClient:
    """Talks to /api/v1/agents/<node>/… with the node's bearer credential."""

    def __init__(
        self,
        server: str,
        node: str,
        credential: str,
        cafile: str | None = None,
        verify: bool = True,
        timeout: float = 45.0,
    ):
        self.server = check_server(server)
        self.base = self.server + f"/api/v1/agents/{grammar.node_name(node)}" if node else ""
        self.credential = credential
        self.timeout = timeout
        self.context = ssl.create_default_context(cafile=cafile)
        if not verify:  # only for explicitly configured test setups
            self.context.check_hostname = False
            self.context.verify_mode = ssl.CERT_NONE
        self._conn: http.client.HTTPConnection | None = None

    def _connect(self) -> http.client.HTTPConnection:
        netloc = urllib.parse.urlsplit(self.server).netloc  # check_server: no credentials in it
        if self.server.startswith("https:"):
            return http.client.HTTPSConnection(netloc, timeout=self.timeout, context=self.context)
        return http.client.HTTPConnection(netloc, timeout=self.timeout)

    def close(self) -> None:
        """Close the kept-alive connection (the next request opens a new one)."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def _exchange(self, method: str, target: str, data: bytes | None, headers: dict) -> tuple[int, dict, bytes]:
        """One request on the kept-alive connection; once more on a new one if the portal had closed it."""
        reused = self._conn is not None
        try:
            return self._send(self._conn or self._connect(), method, target, data, headers)
        except (ConnectionResetError, BrokenPipeError):  # RemoteDisconnected is one
            # The portal closes idle connections (keep-alive timeout, restart): a request sent on one
            # fails before any answer, and is sent once more on a new connection. Each agent request
            # may be repeated: polls and reports are idempotent, and a repeated rotation gets another
            # credential while the first stays valid for its grace period.
            if not reused:
                raise
            return self._send(self._connect(), method, target, data, headers)

    def _send(
        self, conn: http.client.HTTPConnection, method: str, target: str, data: bytes | None, headers: dict
    ) -> tuple[int, dict, bytes]:
        """Send on `conn` and read the whole answer; keep `conn` for the next request if the portal does."""
        self._conn = None
        try:
            conn.request(method, target, body=data, headers=headers)
            resp = conn.getresponse()
            body = resp.read()
        except BaseException:
            conn.close()
            raise
        if resp.will_close:
            conn.close()
        else:
            self._conn = conn
        return resp.status, dict(resp.headers), body

    def _request(
        self, method: str, url: str, body: dict | None = None, headers: dict | None = None, auth: bool = True
    ) -> tuple[int, dict, bytes]:
        if not url.startswith(self.server + "/"):
            raise PortalError(f"refusing URL {url!r} outside the portal {self.server}")
        data = json.dumps(body).encode() if body is not None else None
        sent = {
            "Accept": "application/json",
            **({"Content-Type": "application/json"} if data else {}),
            **({"Authorization": f"Bearer {self.credential}"} if auth else {}),
            wire.WIRE_HEADER: wire.reads_header(),  # every request says which document schemas it reads
            **(headers or {}),
        }
        parts = urllib.parse.urlsplit(url)
        target = parts.path + (f"?{parts.query}" if parts.query else "")
        try:
            status, hdrs, answer = self._exchange(method, target, data, sent)
        except (OSError, http.client.HTTPException) as exc:  # TLS, timeouts, refused, malformed answers
            raise PortalError(f"{method} {url}: {exc or type(exc).__name__}") from exc
        if 300 <= status < 400 and status != 304:
            raise PortalError(
                f"{method} {url}: the portal answered {status} to {hdrs.get('Location')}; "
                "refusing to follow a redirect with the credential",
                status=status,
            )
        if status >= 400:
            raise PortalError(f"{method} {url}: HTTP {status}{_detail(answer)}", _retry_after(hdrs), status)
        return status, hdrs, answer

    def desired_state(self, etag: str | None, wait: int = 30) -> Fetched:
        """Long-poll; returns immediately when the generation differs from etag."""
        headers = {"Accept-Encoding": wire.GZIP} | ({"If-None-Match": etag} if etag else {})
        status, hdrs, body = self._request("GET", f"{self.base}/desired-state?wait={wait}", headers=headers)
        if status == 304:
            return Fetched(None, etag)
        tag = _header(hdrs, "ETag")
        body = _decoded(body, _header(hdrs, "Content-Encoding"))
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


def _header(headers: dict, name: str) -> str | None:
    """A header's value, its name matched without case (HTTP names are case-insensitive)."""
    return next((value for key, value in headers.items() if key.lower() == name.lower()), None)


def _detail(body: bytes) -> str:
    """The portal's stated reason (e.g. 409: "upgrade the agent"), printable and short, for the log."""
    try:
        detail = json.loads(body).get("detail")
    except (ValueError, AttributeError):
        return ""
    return f": {detail[:300]!r}" if isinstance(detail, str) else ""


def _decoded(body: bytes, coding: str | None) -> bytes:
    """The body without its content coding: none, or gzip (what this client asks for), bounded."""
    coding = (coding or "identity").strip().lower()
    if coding == "identity":
        return body
    if coding != wire.GZIP:
        raise PortalError(f"the portal answered in a content coding this agent did not ask for: {coding!r}")
    try:
        return wire.gunzip(body)
    except ValueError as exc:
        raise PortalError(f"the portal's gzip answer is refused: {exc}") from None


def _json_object(body: bytes) -> dict:
    try:
        data = json.loads(body)
    except ValueError as exc:
        raise PortalError(f"the portal answered non-JSON: {exc}") from None
    if not isinstance(data, dict):
        raise PortalError("the portal answered JSON that is not an object")
    return data


def join(
    server: str,
    token: str,
    hostname: str,
    capabilities: dict,
    cafile: str | None = None,
    interfaces: list[dict] | None = None,
) -> dict:
    """Exchange a one-time join token for {"node": name, "credential": secret, ...}."""
    client = PortalClient(server, "", "", cafile=cafile)
    try:
        _, _, body = client._request(
            "POST",
            client.server + "/api/v1/agents/join",
            auth=False,
            body={
                "token": token,
                "hostname": hostname,
                "capabilities": capabilities,
                "interfaces": interfaces or [],
                "reads": list(wire.READS),
            },
        )
    finally:
        client.close()
    data = _json_object(body)
    if not data.get("node") or not data.get("credential"):
        raise PortalError("join answer lacks node or credential")
    try:
        grammar.node_name(data["node"])
    except grammar.GrammarError as exc:
        raise PortalError(f"join answer: {exc}") from None
    check_secret(data["credential"], "credential")
    return data
