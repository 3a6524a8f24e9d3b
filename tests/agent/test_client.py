"""The urllib client against the stdlib portal double (long-poll, ETag, join, report)."""

import json
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from enclave_agent.agent import Reporter
from enclave_agent.client import PortalClient, PortalError, join
from portal_double import CREDENTIAL
from topo import desired

DOUBLE = str(Path(__file__).with_name("portal_double.py"))


@pytest.fixture
def portal(tmp_path):
    """The stdlib portal double on a free port, killed afterwards."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    state, observed = tmp_path / "state.json", tmp_path / "observed.json"
    state.write_text(json.dumps(desired("n1", 1, [70001])))
    proc = subprocess.Popen(
        [sys.executable, DOUBLE, "--port", str(port), "--state", str(state), "--observed", str(observed)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout.readline().strip() == "READY"
        yield f"http://127.0.0.1:{port}", state, observed
    finally:
        proc.kill()
        proc.wait()


def test_it_exchanges_a_join_token_once(portal):
    url, _, _ = portal
    assert join(url, "join-once", "n1", {})["node"] == "n1"
    with pytest.raises(PortalError):
        join(url, "join-once", "n1", {})


def test_it_long_polls_with_etag_and_gets_changes(portal):
    url, state, _ = portal
    client = PortalClient(url, "n1", CREDENTIAL)
    first = client.desired_state(None, wait=1)
    assert first.state.generation == 1 and first.etag == '"1"'
    assert client.desired_state(first.etag, wait=1).state is None  # 304 after the wait
    state.write_text(json.dumps(desired("n1", 1, [70001, 70002], generation=2)))
    assert client.desired_state(first.etag, wait=1).state.generation == 2


def test_it_rejects_a_wrong_credential_and_non_http_urls(portal):
    url, _, _ = portal
    with pytest.raises(PortalError):
        PortalClient(url, "n1", "wrong").desired_state(None)
    with pytest.raises(PortalError):
        PortalClient("file:///etc", "n1", "x").desired_state(None)


def test_it_posts_observed_state(portal):
    url, _, observed = portal
    PortalClient(url, "n1", CREDENTIAL).report({"generation": 1, "tenants": {}})
    assert json.loads(observed.read_text())["generation"] == 1


def test_a_report_is_posted_when_it_says_something_new_and_an_unchanged_one_only_after_a_while(portal):
    url, _, observed = portal
    now = [0.0]
    client, reporter = PortalClient(url, "n1", CREDENTIAL), Reporter(again_after=600, clock=lambda: now[0])
    report = {"generation": 1, "tenants": {"70001": {"status": "ready", "errors": []}}, "seconds": 0.1}
    assert reporter.send(client, report)
    observed.unlink()
    assert not reporter.send(client, report | {"seconds": 0.2, "full": True, "ops": 3})  # only the pass differs
    assert not observed.exists()
    failing = report | {"tenants": {"70001": {"status": "failed", "errors": ["boom"]}}}
    assert reporter.send(client, failing)
    assert json.loads(observed.read_text())["tenants"]["70001"]["status"] == "failed"
    reporter.forget()  # the portal was unreachable: it may have marked the node silent
    assert reporter.send(client, failing)
    now[0] = 599
    assert not reporter.send(client, failing)
    now[0] = 601
    assert reporter.send(client, failing)  # unchanged, but again_after has passed


def test_a_report_that_could_not_be_posted_is_posted_by_the_next_pass(portal):
    url, _, observed = portal
    reporter, report = Reporter(), {"generation": 2, "tenants": {}, "seconds": 0.1}
    with pytest.raises(PortalError):
        reporter.send(PortalClient(url, "n1", "wrong"), report)
    assert reporter.send(PortalClient(url, "n1", CREDENTIAL), report)
    assert json.loads(observed.read_text())["generation"] == 2


def test_it_verifies_tls_by_default():
    client = PortalClient("https://portal.invalid", "n1", "x")
    assert client.context.verify_mode.name == "CERT_REQUIRED" and client.context.check_hostname


class KeepAlive(BaseHTTPRequestHandler):
    """HTTP/1.1 answers that keep the connection open; records each request's client port."""

    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        """Quiet."""

    def _answer(self):
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.server.ports.append(self.client_address[1])
        body = json.dumps(desired("n1", 1, [70001])).encode() if self.command == "GET" else b""
        self.send_response(200 if body else 204)
        self.send_header("ETag", '"1"')
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        # Closed without saying so, as a portal does when its keep-alive timeout ends.
        self.close_connection = self.server.drop_after_each

    do_GET = do_POST = _answer  # noqa: N815 - http.server naming


@pytest.fixture
def keepalive():
    server = ThreadingHTTPServer(("127.0.0.1", 0), KeepAlive)
    server.ports, server.drop_after_each = [], False
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server, f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_polls_and_reports_share_one_kept_alive_connection(keepalive):
    server, url = keepalive
    client = PortalClient(url, "n1", CREDENTIAL)
    for _ in range(3):
        assert client.desired_state(None, wait=0).state.generation == 1
        client.report({"generation": 1, "tenants": {}})
    assert len(server.ports) == 6 and len(set(server.ports)) == 1


def test_a_connection_the_portal_closed_is_replaced_without_an_error(keepalive):
    server, url = keepalive
    server.drop_after_each = True
    client = PortalClient(url, "n1", CREDENTIAL)
    for _ in range(3):
        assert client.desired_state(None, wait=0).state.generation == 1
        time.sleep(0.05)  # the close reaches the client before it sends again
        client.report({"generation": 1, "tenants": {}})
        time.sleep(0.05)
    assert len(server.ports) == 6 and len(set(server.ports)) == 6  # each request sent once, on a new connection
