"""The agent's credential goes only to its portal: https (loopback http), no redirects, bounded retries."""

import gzip
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from enclave_agent.client import DocumentRefused, PortalClient, PortalError, check_server, join
from topo import desired


class Recorder(BaseHTTPRequestHandler):
    """Answers from a per-server script and records every request's headers."""

    def log_message(self, *args):
        """Quiet."""

    def _answer(self):
        self.server.seen.append((self.command, self.path, dict(self.headers)))
        code, headers, body = self.server.script(self)
        self.send_response(code)
        for key, value in headers.items():
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = _answer  # noqa: N815 - http.server naming


@pytest.fixture
def serve():
    """Start loopback HTTP servers running a script; shut them all down afterwards."""
    servers = []

    def start(script):
        server = ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
        server.script, server.seen = script, []
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return server, f"http://127.0.0.1:{server.server_address[1]}"

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("url", ["http://portal.example", "http://10.0.0.1:8000", "ftp://127.0.0.1",
                                 "file:///etc/passwd", "https://user:pw@portal.example", "http://127.0.0.1.nip.io",
                                 "https://portal.example/?x=1"])  # fmt: skip
def test_it_refuses_plain_http_except_to_loopback_and_urls_carrying_secrets(url):
    with pytest.raises(PortalError):
        check_server(url)
    with pytest.raises(PortalError):
        join(url, "encj_x", "n1", {})


@pytest.mark.parametrize("url", ["https://portal.example", "http://127.0.0.1:8000", "http://[::1]:80",
                                 "http://localhost:8000/"])  # fmt: skip
def test_it_accepts_https_and_loopback_http(url):
    assert PortalClient(url, "n1", "x").base.endswith("/api/v1/agents/n1")


def test_a_node_name_that_is_not_a_dns_label_never_reaches_a_url():
    with pytest.raises(ValueError):
        PortalClient("https://portal.example", "../../api/v1/tenants", "x")


@pytest.mark.parametrize("code", [301, 302, 303, 307, 308])
def test_it_never_follows_a_redirect_so_the_credential_stays_home(serve, code):
    elsewhere, other = serve(lambda h: (200, {}, b"{}"))
    portal, url = serve(lambda h: (code, {"Location": f"{other}{h.path}"}, b""))
    client = PortalClient(url, "n1", "encn_secret-value-0000")
    with pytest.raises(PortalError, match="redirect"):
        client.desired_state(None, wait=0)
    with pytest.raises(PortalError, match="redirect"):
        client.report({"generation": 1})
    assert elsewhere.seen == []  # the other host never heard from us, credential or not
    assert all(h["Authorization"] == "Bearer encn_secret-value-0000" for _, _, h in portal.seen)


def test_it_follows_no_redirect_at_join_either(serve):
    elsewhere, other = serve(lambda h: (200, {}, b'{"node": "n1", "credential": "encn_aaaaaaaaaaaaaaaa"}'))
    _, url = serve(lambda h: (307, {"Location": f"{other}/api/v1/agents/join"}, b""))
    with pytest.raises(PortalError, match="redirect"):
        join(url, "encj_one-time-token", "n1", {})
    assert elsewhere.seen == []


def test_a_429_carries_its_retry_after_to_the_caller(serve):
    _, url = serve(lambda h: (429, {"Retry-After": "17"}, b'{"detail": "too many long-polls"}'))
    with pytest.raises(PortalError) as caught:
        PortalClient(url, "n1", "x").desired_state('"1"', wait=30)
    assert caught.value.retry_after == 17 and caught.value.status == 429


def test_a_document_failing_the_grammar_is_refused_with_its_etag(serve):
    doc = desired("n1", 1, [70001])
    doc["node"]["interfaces"][0]["name"] = "eth0\nlink del lo"
    _, url = serve(lambda h: (200, {"ETag": '"bad"'}, json.dumps(doc).encode()))
    with pytest.raises(DocumentRefused, match="refused") as caught:
        PortalClient(url, "n1", "x").desired_state(None, wait=0)
    assert caught.value.etag == '"bad"'


def test_the_agent_asks_for_gzip_and_reads_a_document_sent_in_several_members(serve):
    text = json.dumps(desired("n1", 4, [70001], generation=4)).encode()
    packed = gzip.compress(text[:40], mtime=0) + gzip.compress(text[40:], mtime=0)
    server, url = serve(lambda h: (200, {"ETag": 'W/"4"', "Content-Encoding": "gzip"}, packed))
    fetched = PortalClient(url, "n1", "x").desired_state(None, wait=0)
    assert fetched.state.generation == 4 and fetched.etag == 'W/"4"'
    assert server.seen[0][2]["Accept-Encoding"] == "gzip"


@pytest.mark.parametrize("coding, body", [("br", b"{}"), ("gzip", b"{}"), ("gzip", gzip.compress(b"{}", mtime=0)[:-4])])
def test_a_coding_not_asked_for_or_a_broken_gzip_answer_is_refused(serve, coding, body):
    _, url = serve(lambda h: (200, {"ETag": '"1"', "Content-Encoding": coding}, body))
    with pytest.raises(PortalError, match="coding|gzip"):
        PortalClient(url, "n1", "x").desired_state(None, wait=0)


@pytest.mark.parametrize(
    "answer",
    [
        b'{"node": "../x", "credential": "encn_aaaaaaaaaaaaaaaa"}',
        b'{"node": "n1", "credential": "encn_a\\r\\nX-Evil: 1"}',
        b"[]",
        b"not json",
    ],
)
def test_a_malformed_join_answer_is_refused(serve, answer):
    _, url = serve(lambda h: (201, {}, answer))
    with pytest.raises(PortalError):
        join(url, "encj_one-time-token", "n1", {})
