"""A real HTTP receiver on 127.0.0.1 for webhook tests: it answers from a script and verifies signatures
with the `standardwebhooks` library, as a site's own receiver would."""

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from standardwebhooks.webhooks import Webhook, WebhookVerificationError


@dataclass
class Received:
    """One request as the receiver saw it."""

    path: str
    headers: dict
    body: str
    status: int

    @property
    def message(self) -> dict:
        return json.loads(self.body)

    def verifies_with(self, secret: str) -> bool:
        """Whether the Standard Webhooks library accepts this request for this secret."""
        try:
            Webhook(secret).verify(self.body, self.headers)
        except WebhookVerificationError:
            return False
        return True


@dataclass
class Receiver:
    """Answers each POST with the next (status, delay seconds, extra headers) of `script`, then 200."""

    script: list = field(default_factory=list)
    received: list = field(default_factory=list)
    server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/hooks/enclave?source=test"

    def start(self) -> "Receiver":
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 - the http.server API
                body = self.rfile.read(int(self.headers.get("content-length", 0))).decode()
                status, delay, extra = receiver.script.pop(0) if receiver.script else (200, 0, {})
                time.sleep(delay)
                receiver.received.append(Received(self.path, dict(self.headers), body, status))
                self.send_response(status)
                for key, value in extra.items():
                    self.send_header(key, value)
                self.send_header("content-length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def wait(self, count: int, timeout: float = 60) -> list:
        """The requests received once there are `count` of them (or whatever came before the timeout)."""
        deadline = time.monotonic() + timeout
        while len(self.received) < count and time.monotonic() < deadline:
            time.sleep(0.1)
        return self.received
