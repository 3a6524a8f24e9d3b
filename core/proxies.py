"""The client's address: REMOTE_ADDR, or behind trusted reverse proxies the right-most untrusted X-Forwarded-For hop.

Every consumer (login lockouts, API and join throttles, failed-token throttles, the audit's source
address) calls client_address(), so no two of them can disagree about who the client is. Only the
proxies named in ENCLAVE_TRUSTED_PROXIES (CIDRs) are believed: a client that sends its own
X-Forwarded-For straight to the portal, or puts made-up hops in front of a real proxy's, changes nothing,
because the walk from the right stops at the first address no trusted proxy could have written.
"""

import ipaddress

from django.conf import settings

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def parse_networks(values: list[str]) -> tuple:
    """ENCLAVE_TRUSTED_PROXIES as networks; a malformed entry is a start-up error (ValueError naming it)."""
    networks = []
    for value in values:
        try:
            networks.append(ipaddress.ip_network(value, strict=False))
        except ValueError as exc:
            raise ValueError(f"ENCLAVE_TRUSTED_PROXIES: {value!r} is not an address or CIDR network") from exc
    return tuple(networks)


def _address(text: str) -> Address | None:
    try:
        address = ipaddress.ip_address(text.strip())
    except ValueError:
        return None
    return getattr(address, "ipv4_mapped", None) or address  # one key per client, however the socket spells it


def _trusted(address: Address) -> bool:
    return any(address in network for network in settings.TRUSTED_PROXIES)


def client_address(request) -> str | None:
    """The address of the client as the outermost trusted proxy saw it (REMOTE_ADDR when it is no proxy)."""
    remote = _address(request.META.get("REMOTE_ADDR") or "")
    if remote is None:
        return None
    hops = [h for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if h.strip()]
    current = remote
    while _trusted(current) and hops:
        previous = _address(hops.pop())
        if previous is None:
            break  # a hop no proxy of ours wrote: the last trusted address is all we know
        current = previous
    return str(current)
