"""Stdlib test double of the portal's agent endpoints (join, desired-state long-poll, observed).

Only for the agent's own tests; the real Django endpoint has its own tests. The desired state
is read from a file on every request, so a test changes intent by rewriting that file.
"""

import argparse
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

TOKEN = "join-once"
CREDENTIAL = "node-secret-0000000001"
RENEWED = "node-secret-0000000002"


class Handler(BaseHTTPRequestHandler):
    """Implements the three endpoints the agent uses."""

    state_file: Path
    observed_file: Path
    lock = threading.Lock()
    used_tokens: set = set()
    valid = {CREDENTIAL}

    def log_message(self, *args):
        """Keep test output quiet."""

    def _send(self, code: int, body: dict | None = None, etag: str | None = None) -> None:
        data = json.dumps(body).encode() if body is not None else b""
        self.send_response(code)
        if etag:
            self.send_header("ETag", etag)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _authorised(self) -> bool:
        return self.headers.get("Authorization") in {f"Bearer {c}" for c in self.valid}

    def do_GET(self):  # noqa: N802 - http.server naming
        """Desired state with ETag = generation; long-poll while unchanged."""
        if not self._authorised():
            return self._send(401, {"detail": "bad credential"})
        if "/desired-state" not in self.path:
            return self._send(404)
        deadline = time.monotonic() + 2.0
        while True:
            state = json.loads(self.state_file.read_text())
            etag = f'"{state["generation"]}"'
            if self.headers.get("If-None-Match") != etag or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        if self.headers.get("If-None-Match") == etag:
            return self._send(304, etag=etag)
        return self._send(200, state, etag=etag)

    def do_POST(self):  # noqa: N802 - http.server naming
        """Join (token -> credential, once) and observed-state reports."""
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
        if self.path.endswith("/join"):
            with self.lock:
                if body.get("token") != TOKEN or TOKEN in self.used_tokens:
                    return self._send(403, {"detail": "invalid token"})
                self.used_tokens.add(TOKEN)
            return self._send(200, {"node": body["hostname"], "credential": CREDENTIAL, "expires_in": 3600})
        if not self._authorised():
            return self._send(401, {"detail": "bad credential"})
        if self.path.endswith("/credential"):  # rotation: the old one stays valid (grace)
            self.valid.add(RENEWED)
            return self._send(201, {"credential": RENEWED, "expires_in": 3600})
        self.observed_file.write_text(json.dumps(body))
        return self._send(200, {"ok": True})


def main() -> None:
    """Serve until killed."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--state", type=Path, required=True)
    ap.add_argument("--observed", type=Path, required=True)
    args = ap.parse_args()
    Handler.state_file, Handler.observed_file = args.state, args.observed
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    print("READY", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
