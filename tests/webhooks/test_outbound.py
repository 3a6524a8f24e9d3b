"""The outbound rules: which URLs a webhook may have, and which resolved addresses a delivery may reach."""

import ipaddress
import socket
import ssl
import threading
import time

import pytest

from tests.identity.slapd import _certificates
from webhooks import delivery, outbound, services
from webhooks.choices import DeliveryState

REFUSED_URLS = [
    "http://hooks.example.org/x",  # plain http
    "https://127.0.0.1/x",
    "https://[::1]/x",
    "https://[::ffff:127.0.0.1]/x",
    "https://10.0.0.1/x",
    "https://100.64.0.1/x",  # shared (CGNAT) space
    "https://169.254.169.254/latest/meta-data/",
    "https://0.0.0.0/x",
    "https://user:pw@hooks.example.org/x",
    "https://hooks.example.org/x#frag",
    "https://hooks.example.org/x y",
    "ftp://hooks.example.org/x",
    "https:///x",
]

# Every IPv6 spelling that carries a private, loopback or link-local IPv4 address.
REFUSED_EMBEDDED = [
    "::ffff:127.0.0.1",  # IPv4-mapped
    "::ffff:10.0.0.1",
    "::127.0.0.1",  # IPv4-compatible (deprecated)
    "::169.254.169.254",
    "::8.8.8.8",  # IPv4-compatible at all: no public host has such an address
    "64:ff9b::127.0.0.1",  # NAT64 well-known prefix
    "64:ff9b::a9fe:a9fe",  # NAT64 to 169.254.169.254
    "64:ff9b::192.168.1.1",
    "64:ff9b:1::a00:1",  # NAT64 local-use prefix
    "64:ff9b:1:ffff::8.8.8.8",
    "2002:7f00:1::1",  # 6to4 of 127.0.0.1
    "2002:a00:1::1",  # 6to4 of 10.0.0.1
    "2002:a9fe:a9fe::1",  # 6to4 of 169.254.169.254
    "2001:0:4136:e378:8000:63bf:f5ff:fffe",  # Teredo, client 10.0.0.1
    "2001:0:a00:1:8000:63bf:3fff:fdd2",  # Teredo, server 10.0.0.1
]


@pytest.mark.parametrize("address", REFUSED_EMBEDDED)
def test_an_ipv6_form_embedding_a_private_ipv4_address_is_refused(address):
    with pytest.raises(ValueError, match="not allowed"):
        outbound.check_url(f"https://[{address}]/x")
    assert outbound._forbidden(ipaddress.ip_address(address))


@pytest.mark.parametrize("address", ["64:ff9b::808:808", "2002:808:808::1", "2606:4700::1111", "8.8.8.8"])
def test_a_public_address_is_allowed_also_through_nat64_or_6to4(address):
    assert not outbound._forbidden(ipaddress.ip_address(address))


@pytest.mark.parametrize("url", REFUSED_URLS)
def test_a_url_outside_the_rules_is_refused(url):
    with pytest.raises(ValueError):
        outbound.check_url(url)


def test_a_public_https_url_is_accepted():
    outbound.check_url("https://hooks.example.org:8443/enclave?token=abc")


def test_a_host_name_that_resolves_to_loopback_is_refused_at_delivery():
    with pytest.raises(outbound.Refused, match="loopback, private or link-local"):
        outbound.resolve("localhost", 443)


@pytest.mark.django_db(transaction=True)
def test_a_delivery_to_a_name_resolving_to_loopback_fails_for_good_without_a_request(world, receiver, settings):
    settings.WEBHOOK_ALLOW_HTTP = True
    port = receiver.server.server_address[1]
    hook, _ = services.create_webhook(world.owner_a, world.tenant_a, {
        "name": "rebind", "url": f"http://localhost:{port}/x", "events": ["cluster.state_changed"]})  # fmt: skip
    done = delivery.attempt(services.send_test(world.owner_a, hook).pk)
    assert done.state == DeliveryState.FAILED and done.attempts == 1 and "resolves to a loopback" in done.last_error
    assert receiver.received == []


class Drip:
    """A receiver that sends its answer one byte at a time, each byte well inside the read timeout."""

    def __init__(self, answer: bytes, gap: float, tls: ssl.SSLContext | None = None):
        self.answer, self.gap, self.tls = answer, gap, tls
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        with self.sock:
            conn, _ = self.sock.accept()
        with self.tls.wrap_socket(conn, server_side=True) if self.tls else conn as conn:
            conn.recv(65536)
            for byte in self.answer:
                time.sleep(self.gap)
                try:
                    conn.sendall(bytes([byte]))
                except OSError:
                    return


@pytest.fixture
def tls(lab, tmp_path):
    """A CA the site trusts and a server certificate for 127.0.0.1 signed by it."""
    _certificates(tmp_path)
    lab.WEBHOOK_CA_BUNDLE = str(tmp_path / "ca.pem")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(tmp_path / "server.pem", tmp_path / "server.key")
    return context


DRIPS = {
    "body": b"HTTP/1.1 200 OK\r\nContent-Length: 4096\r\n\r\n" + b"x" * 4096,
    "headers": b"HTTP/1.1 200 OK\r\n" + b"X-Slow: " + b"y" * 4096 + b"\r\n\r\n",
}


@pytest.mark.parametrize(("scheme", "drip"), [("http", "body"), ("http", "headers"), ("https", "body")])
def test_a_receiver_dripping_its_answer_is_cut_at_the_attempts_deadline_and_retried(lab, world, tls, scheme, drip):
    lab.WEBHOOK_TIMEOUT = 1.5  # each byte comes within it; the whole answer would take minutes
    server = Drip(DRIPS[drip], gap=0.05, tls=tls if scheme == "https" else None)
    hook, _ = services.create_webhook(world.owner_a, world.tenant_a, {  # the certificate names 127.0.0.1 too
        "name": "slow", "url": f"{scheme}://127.0.0.1:{server.port}/in", "events": ["firewall.changed"]})  # fmt: skip
    done = delivery.attempt(services.send_test(world.owner_a, hook).pk)
    assert done.state == DeliveryState.RETRYING
    assert done.last_error == f"no whole answer within {1.5 * outbound.ATTEMPT_TIMEOUTS:g} s"
