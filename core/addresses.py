"""The one grammar for IP addresses and networks taken from anyone: canonical, unscoped, no whitespace.

Pure (standard library only): the API serializers, the page forms, the services, the model field and
the policy compiler all call these, so what reaches nft, NSX or a node is exactly what was checked.
"""

import ipaddress
import re

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address
# Hex digits, dots and colons, and one slash before the prefix length; nothing else can be canonical.
NETWORK_RE = re.compile(r"[0-9a-fA-F.:]{2,39}/[0-9]{1,3}")
ADDRESS_RE = re.compile(r"[0-9a-fA-F.:]{2,39}")


class AddressError(ValueError):
    """The text is not an acceptable address or network; the message says why, naming the value."""


def _refuse_odd_characters(text, kind: str, example: str) -> None:
    if not isinstance(text, str):
        raise AddressError(f"{text!r} is not an {kind}: give it as text, e.g. {example}.")
    if "%" in text:
        raise AddressError(f"{text!r} carries a scope id (%…); scoped addresses are not allowed here.")
    if any(ch.isspace() for ch in text):
        raise AddressError(f"{text!r} contains whitespace; write the {kind} alone, e.g. {example}.")


def parse_network(text, canonical: bool = True) -> Network:
    """A network written as prefix/length with no host bits set, and (by default) in canonical form."""
    _refuse_odd_characters(text, "network", "10.0.0.0/24")
    if "/" not in text:
        raise AddressError(f"{text!r} has no prefix length; write a network such as {text}/32.")
    if not NETWORK_RE.fullmatch(text):
        raise AddressError(f"{text!r} is not a network: use an address, a slash and a prefix length.")
    try:
        net = ipaddress.ip_network(text, strict=True)
    except ValueError as exc:
        raise AddressError(f"{text!r} is not a network: {exc}") from None
    if canonical and str(net) != text:
        raise AddressError(f"{text!r} is not written canonically; write {net}.")
    return net


def parse_address(text, canonical: bool = True) -> Address:
    """A single IPv4 or IPv6 address with no scope and (by default) in canonical form."""
    _refuse_odd_characters(text, "address", "10.0.0.1")
    if not ADDRESS_RE.fullmatch(text):
        raise AddressError(f"{text!r} is not an IP address (a network or a prefix length is not allowed here).")
    try:
        addr = ipaddress.ip_address(text)
    except ValueError as exc:
        raise AddressError(f"{text!r} is not an IP address: {exc}") from None
    if canonical and str(addr) != text:
        raise AddressError(f"{text!r} is not written canonically; write {addr}.")
    return addr
