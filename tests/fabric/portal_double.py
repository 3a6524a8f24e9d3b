"""Stdlib double of the portal's fabric-agent endpoints (join, desired, report, credential), in a thread.

Only for the fabric agent's own tests; the Django endpoints have theirs. A test sets `desired` (any
JSON, also malformed documents) and reads `reports`.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TOKEN = "fabric-join-once-0001"
CREDENTIAL = "fabric-secret-000000001"
PREFIX = "/api/v1/fabric-agents/"


class PortalDouble:
    """Serves one fabric's desired document with ETag = generation; keeps every report posted."""

    def __init__(self, fabric: str = "ib0"):
        self.fabric, self.desired, self.reports, self.joined = fabric, None, [], False
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> PortalDouble:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()

    def _handler(self):
        double = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                """Quiet."""

            def _send(self, code: int, body=None, etag: str | None = None):
                data = json.dumps(body).encode() if body is not None else b""
                self.send_response(code)
                if etag:
                    self.send_header("ETag", etag)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _authorised(self) -> bool:
                return self.headers.get("Authorization") == f"Bearer {CREDENTIAL}"

            def do_GET(self):  # noqa: N802 - http.server naming
                if not self._authorised():
                    return self._send(401, {"detail": "bad credential"})
                if self.path != f"{PREFIX}{double.fabric}/desired":
                    return self._send(404)
                generation = double.desired.get("generation") if isinstance(double.desired, dict) else None
                etag = f'"{generation}"'
                if self.headers.get("If-None-Match") == etag:
                    return self._send(304, etag=etag)
                return self._send(200, double.desired, etag=etag)

            def do_POST(self):  # noqa: N802 - http.server naming
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                if self.path == f"{PREFIX}join":
                    if body.get("token") != TOKEN or double.joined:
                        return self._send(403, {"detail": "invalid token"})
                    double.joined = True
                    return self._send(200, {"fabric": double.fabric, "credential": CREDENTIAL, "expires_in": 3600})
                if not self._authorised():
                    return self._send(401, {"detail": "bad credential"})
                if self.path == f"{PREFIX}{double.fabric}/report":
                    double.reports.append(body)
                    return self._send(200, {"ok": True})
                return self._send(404)

        return Handler
