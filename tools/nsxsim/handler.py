"""HTTPS plumbing: basic auth, injected faults, call counters, JSON in and out, the /_enclave/ controls."""

from __future__ import annotations

import base64
import hmac
import json
import logging
import ssl
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlsplit

from . import errors
from .api import Api
from .faults import Faults, Stats
from .store import Store

log = logging.getLogger("nsxsim")
API_PREFIXES = ("/policy/api/", "/api/")
MAX_BODY = 64 * 1024 * 1024


class SimServer(ThreadingHTTPServer):
    """A threading HTTPS server; the TLS handshake happens in the connection's own thread."""

    daemon_threads = True
    request_queue_size = 128

    def __init__(self, address, context: ssl.SSLContext, api: Api, store: Store, faults: Faults, user, password):
        super().__init__(address, Handler)
        self.context, self.api, self.store, self.faults = context, api, store, faults
        self.stats = Stats()
        self.user, self.password = user, password

    def finish_request(self, request, client_address) -> None:
        """Wrap the connection in TLS, then serve it."""
        try:
            request = self.context.wrap_socket(request, server_side=True)
        except (ssl.SSLError, OSError) as exc:
            log.info("TLS handshake with %s failed: %s", client_address, exc)
            return
        super().finish_request(request, client_address)

    def handle_error(self, request, client_address) -> None:
        """A dropped connection is not worth a traceback."""
        log.debug("connection from %s ended with an error", client_address, exc_info=True)


class Handler(BaseHTTPRequestHandler):
    """One connection (keep-alive); every method goes through _dispatch."""

    protocol_version = "HTTP/1.1"
    server_version = "NSX-stand-in"
    server: SimServer

    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        self._dispatch("GET")

    def do_POST(self) -> None:  # noqa: N802
        self._dispatch("POST")

    def do_PATCH(self) -> None:  # noqa: N802
        self._dispatch("PATCH")

    def do_PUT(self) -> None:  # noqa: N802
        self._dispatch("PUT")

    def do_DELETE(self) -> None:  # noqa: N802
        self._dispatch("DELETE")

    def log_message(self, fmt, *args) -> None:
        """Requests go to the debug log, not stderr."""
        log.debug("%s " + fmt, self.address_string(), *args)

    def _dispatch(self, method: str) -> None:
        """Read, route, answer; any NsxError becomes NSX's error body."""
        url = urlsplit(self.path)
        query = dict(parse_qsl(url.query, keep_blank_values=True))
        try:
            raw = self._raw()
            if url.path.startswith("/_enclave/"):
                status, answer = self._control(method, url.path, parse_json(raw))
            elif url.path.startswith(API_PREFIXES):
                status, answer = self._api(method, url.path, query, raw)
            else:
                raise errors.NsxError(404, errors.NOT_FOUND, f"{url.path}: not served by this NSX stand-in.")
        except errors.NsxError as exc:
            status, answer = exc.status, exc.body()
        except Exception:  # an answer for the client, the traceback for the log
            log.exception("%s %s failed", method, self.path)
            status, answer = 500, errors.error_body(500, errors.INTERNAL, "Internal error in the NSX stand-in.")
        self._send(status, answer)

    def _api(self, method: str, path: str, query: dict, raw: bytes) -> tuple[int, dict | None]:
        """An NSX API call: counted, authenticated, maybe faulted, then answered."""
        self.server.stats.count(method, path)
        if not self._authorized():
            raise errors.NsxError(401, errors.AUTH, "The credentials were incorrect or the account is locked.")
        fault = self.server.faults.take_http(method, path)
        if fault is not None:
            time.sleep(fault.delay)
            if fault.status:
                message = fault.message or f"Injected fault: HTTP {fault.status}."
                raise errors.NsxError(fault.status, fault.error_code, message)
        return self.server.api.handle(method, path, query, parse_json(raw))

    def _authorized(self) -> bool:
        """HTTP basic auth with the stand-in's user and password."""
        header = self.headers.get("Authorization", "")
        scheme, _, encoded = header.partition(" ")
        if scheme.lower() != "basic":
            return False
        try:
            user, _, password = base64.b64decode(encoded, validate=True).decode().partition(":")
        except (ValueError, UnicodeDecodeError):
            return False
        good_user = hmac.compare_digest(user.encode(), self.server.user.encode())
        return good_user and hmac.compare_digest(password.encode(), self.server.password.encode())

    def _raw(self) -> bytes:
        """The request body's bytes (read whole, so the connection stays usable)."""
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError as exc:
            raise errors.invalid("Content-Length is not a number.") from exc
        if length > MAX_BODY:
            self.close_connection = True  # the body stays unread
            raise errors.invalid(f"Request body too large ({length} bytes).")
        return self.rfile.read(length) if length > 0 else b""

    def _send(self, status: int, answer) -> None:
        """Write the status and JSON body (none for 204)."""
        data = b"" if answer is None or status == 204 else json.dumps(answer).encode()
        self.send_response(status)
        if data:
            self.send_header("Content-Type", "application/json")
        if status == 401:
            self.send_header("WWW-Authenticate", 'Basic realm="NSX"')
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _control(self, method: str, path: str, body) -> tuple[int, object]:
        """The test controls: faults, stats, stored paths (no auth, loopback only)."""
        server = self.server
        routes = {
            ("POST", "/_enclave/faults"): lambda: {"armed": [vars(server.faults.add(body)).copy()]},
            ("GET", "/_enclave/faults"): lambda: {"faults": server.faults.listing()},
            ("DELETE", "/_enclave/faults"): lambda: server.faults.clear(body) or {"faults": server.faults.listing()},
            ("GET", "/_enclave/stats"): server.stats.snapshot,
            ("DELETE", "/_enclave/stats"): lambda: server.stats.reset() or server.stats.snapshot(),
            ("GET", "/_enclave/objects"): self._objects,
        }
        route = routes.get((method, path.rstrip("/")))
        if route is None:
            raise errors.NsxError(404, errors.NOT_FOUND, f"{method} {path}: no such control.")
        return 200, route()

    def _objects(self) -> list[str]:
        """Every stored path, sorted (seeded ones included)."""
        with self.server.store.lock:
            return sorted(self.server.store.objects)


def parse_json(raw: bytes):
    """The JSON body (None when there is none; 400 when it is not JSON)."""
    if not raw.strip():
        return None
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise errors.invalid(f"The request body is not valid JSON: {exc}.") from exc
