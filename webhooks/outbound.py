"""The one place that sends webhook requests: SSRF checks on every resolved address, no redirects.

The host is resolved once and every address is checked: anything but a globally routable unicast
address (loopback, private, link-local, CGNAT, multicast, reserved, unspecified) is refused unless
settings.WEBHOOK_ALLOW_PRIVATE_TARGETS. The connection goes to the checked address itself, so a DNS
answer that changes between the check and the connect (rebinding) cannot reach an internal service.
TLS is verified against the host name.
"""

import contextlib
import ipaddress
import socket
import ssl
import threading
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

import urllib3
from django.conf import settings

MAX_BODY = 2048  # bytes of the response kept in the delivery log
ATTEMPT_TIMEOUTS = 3  # the whole attempt (connect, TLS, headers, body) takes at most this many read timeouts


class Refused(Exception):
    """The target is not allowed (a final failure: retrying cannot change it)."""


@dataclass(frozen=True)
class Answer:
    """What one attempt got: the status (None: no answer), how long it took, and a short error or body."""

    status: int | None
    duration_ms: int
    detail: str = ""


NAT64 = ipaddress.ip_network("64:ff9b::/96")  # RFC 6052 well-known prefix: the last 32 bits are IPv4
NAT64_LOCAL = ipaddress.ip_network("64:ff9b:1::/48")  # RFC 8215 local-use: a site's own translator
IPV4_COMPATIBLE = ipaddress.ip_network("::/96")  # deprecated ::a.b.c.d (and :: and ::1 themselves)


def _embedded_ipv4(address: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address carries (mapped, compatible, NAT64, 6to4, Teredo server and client)."""
    low32 = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    found = [address.ipv4_mapped, address.sixtofour, *(address.teredo or ())]
    if address in NAT64 or address in IPV4_COMPATIBLE:
        found.append(low32)
    return [a for a in found if a is not None]


def _forbidden(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Anything but a globally routable unicast address (loopback, private, link-local, CGNAT, reserved...),
    also when an IPv6 address only wraps one (a translator or tunnel would carry the request there)."""
    if address.version == 6:
        if address in NAT64_LOCAL or address in IPV4_COMPATIBLE:
            return True  # a local translator's prefix, or a form no public host has
        inner = _embedded_ipv4(address)
        if inner:
            # A translator or tunnel carries the request to the IPv4 address inside, so that address decides.
            # CPython's is_global for these prefixes differs between patch releases (2002::/16 is "private" in 3.11.2).
            return any(_forbidden(a) for a in inner)
    return not address.is_global or address.is_multicast


def check_url(url: str) -> None:
    """The grammar every webhook URL follows (raised as ValueError with the reason)."""
    parts = urlsplit(url)
    allowed = ("https", "http") if settings.WEBHOOK_ALLOW_HTTP else ("https",)
    if parts.scheme not in allowed:
        raise ValueError("Use an https:// URL." if "http" not in allowed else "Use an http:// or https:// URL.")
    if not parts.hostname or parts.username or parts.password:
        raise ValueError("The URL needs a host name and no user:password part.")
    if parts.fragment or any(c.isspace() or ord(c) < 32 for c in url):
        raise ValueError("The URL may not hold a #fragment, spaces or control characters.")
    try:
        _ = parts.port
    except ValueError as exc:
        raise ValueError("The URL's port is not a number from 1 to 65535.") from exc
    if not settings.WEBHOOK_ALLOW_PRIVATE_TARGETS:
        try:
            literal = ipaddress.ip_address(parts.hostname)
        except ValueError:
            return
        if _forbidden(literal):
            raise ValueError(
                "Loopback, private, link-local and other non-public addresses are not allowed on this site."
            )


def resolve(host: str, port: int) -> str:
    """The address to connect to: every address the name has must be allowed; the first is used."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise OSError(f"cannot resolve {host}: {exc.strerror}") from exc
    addresses = [ipaddress.ip_address(info[4][0].split("%")[0]) for info in infos]
    if not settings.WEBHOOK_ALLOW_PRIVATE_TARGETS and any(_forbidden(a) for a in addresses):
        raise Refused(f"{host} resolves to a loopback, private or link-local address, which this site refuses")
    return str(addresses[0])


class Deadline:
    """The connections of one attempt, shut down when the whole attempt has taken `seconds`.

    urllib3's read timeout bounds each read, not the answer: a receiver sending one byte every few seconds
    (in the TLS handshake, the headers or the body) would hold a worker for hours, and the workers are
    shared by every tenant.
    """

    def __init__(self, seconds: float):
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self.passed = False
        self._timer = threading.Timer(seconds, self._shut)
        self._timer.daemon = True

    def __enter__(self) -> "Deadline":
        self._timer.start()
        return self

    def __exit__(self, *exc) -> None:
        self._timer.cancel()
        self._timer.join()  # no shutdown can then reach a descriptor closed and reused below
        for sock in self._sockets:
            sock.close()

    def _shut(self) -> None:
        with self._lock:
            self.passed = True
            for sock in self._sockets:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)  # the blocked read returns at once

    def watch(self, sock: socket.socket) -> None:
        """Shut this connection at the deadline; refuse a new one after it."""
        with self._lock:
            if self.passed:
                raise OSError("the attempt's deadline passed")
            # A duplicate: TLS wraps the socket and detaches the original, but shutting down either
            # descriptor ends the one connection both name.
            self._sockets.append(sock.dup())

    def watched(self, base: type) -> type:
        """`base` (a urllib3 connection class) whose new connections this deadline watches."""
        deadline = self

        class Watched(base):  # type: ignore[valid-type,misc]
            def _new_conn(self):
                sock = super()._new_conn()
                try:
                    deadline.watch(sock)
                except OSError:
                    sock.close()
                    raise
                return sock

        return Watched


def _pool(parts, address: str, timeout: float, deadline: Deadline):
    """A connection pool to the checked address; TLS checks the certificate against the URL's host."""
    port = parts.port or (443 if parts.scheme == "https" else 80)
    limits = urllib3.Timeout(connect=min(timeout, 5.0), read=timeout)
    if parts.scheme == "http":
        pool = urllib3.HTTPConnectionPool(address, port, timeout=limits, retries=False, maxsize=1)
    else:
        context = ssl.create_default_context(cafile=settings.WEBHOOK_CA_BUNDLE or None)
        pool = urllib3.HTTPSConnectionPool(address, port, timeout=limits, retries=False, maxsize=1,
                                           ssl_context=context, server_hostname=parts.hostname,
                                           assert_hostname=parts.hostname)  # fmt: skip
    pool.ConnectionCls = deadline.watched(pool.ConnectionCls)
    return pool


def post(url: str, body: str, headers: dict, timeout: float) -> Answer:
    """POST the body once, the whole attempt within ATTEMPT_TIMEOUTS read timeouts; never follows a redirect."""
    parts = urlsplit(url)
    start = time.monotonic()
    elapsed = lambda: int((time.monotonic() - start) * 1000)  # noqa: E731
    with Deadline(timeout * ATTEMPT_TIMEOUTS) as deadline:
        try:
            address = resolve(parts.hostname, parts.port or (443 if parts.scheme == "https" else 80))
            host = parts.netloc.rsplit("@", 1)[-1]
            target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
            with _pool(parts, address, timeout, deadline) as pool:
                response = pool.urlopen("POST", target, body=body.encode(), headers={**headers, "host": host},
                                        redirect=False, preload_content=False, assert_same_host=False)  # fmt: skip
                text = response.read(MAX_BODY, decode_content=False).decode("utf-8", "replace")
                response.release_conn()
            if deadline.passed:  # what came before the cut is no whole answer
                raise OSError("cut short")
            return Answer(response.status, elapsed(), text)
        except Refused:
            raise
        except (urllib3.exceptions.HTTPError, OSError, ssl.SSLError) as exc:
            if deadline.passed:
                return Answer(None, elapsed(), f"no whole answer within {timeout * ATTEMPT_TIMEOUTS:g} s")
            return Answer(None, elapsed(), f"{type(exc).__name__}: {exc}"[:500])
