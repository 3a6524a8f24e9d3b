"""The one grammar of every value that reaches `ip`, `bridge`, `nft` or a path on a node.

The portal imports it to refuse bad input (API, join, commands); the agent applies it to every
desired-state document and refuses a document that fails it (nothing of it is applied). The rules
are lexical: a closed alphabet, canonical forms, kernel limits. Whether a valid address has the
right role (inside CGNAT, a free table, ...) is the caller's semantic check.
"""

from __future__ import annotations

import functools
import ipaddress
import re

IFNAMSIZ = 15  # usable bytes of a Linux interface name (IFNAMSIZ 16 less the NUL)
IFNAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,14}")
# Words iproute2 parses as keywords where a device name may stand ("link set dev up" ...).
RESERVED_NAMES = frozenset({
    "add", "address", "alias", "all", "any", "default", "del", "delete", "dev", "down", "dstport",
    "group", "help", "id", "link", "local", "master", "mtu", "name", "netns", "nomaster", "proto",
    "src", "table", "ttl", "type", "up", "via", "vrf", "vxlan",
})  # fmt: skip
NODE_NAME_RE = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?")
UID_MAX = 2**32 - 2  # (uid_t)-1 is "unchanged" to setresuid(2)
INTERFACE_KEYS = frozenset({"name", "address", "gateway"})
MAX_INTERFACES = 64
# A portal ruleset may only create, fill or delete objects of its own table.
PORTAL_STATEMENT = re.compile(
    r"(?:(?:add|create|delete|destroy|flush)\s+)?(?:table|chain|set|map|element|rule)\s+inet\s+enclave"
    r"(?:\s[^\x00]*)?\x00?\s*"
)
NFT_INCLUDE = re.compile(r"(?<![\w.$-])include(?![\w.-])")


_GOOD_NAMES: set[str] = set()


class GrammarError(ValueError):
    """A value that must never reach a kernel tool, a ruleset or a path."""


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _string(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise GrammarError(f"{what}: expected a string, not {type(value).__name__}")
    return value


def integer(value: object, low: int, high: int, what: str) -> int:
    """An int (not a bool, not a numeric string) within [low, high]."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise GrammarError(f"{what}: expected an integer, not {_show(value)}")
    if not low <= value <= high:
        raise GrammarError(f"{what}: {value} is outside {low}..{high}")
    return value


def ifname(value: object, what: str = "interface name") -> str:
    """A Linux interface name iproute2 and nft read as one plain token."""
    text = _string(value, what)
    if text in _GOOD_NAMES:
        return text
    if not IFNAME_RE.fullmatch(text):
        raise GrammarError(f"{what}: {_show(value)} is not 1-{IFNAMSIZ} letters, digits, '_', '.' or '-' "
                           "starting with a letter or digit")  # fmt: skip
    if text.lower() in RESERVED_NAMES:
        raise GrammarError(f"{what}: {text!r} is an iproute2 keyword")
    if len(_GOOD_NAMES) < 65536:  # documents repeat thousands of names; remember good ones
        _GOOD_NAMES.add(text)
    return text


def node_name(value: object) -> str:
    """A node's name: one DNS label (it becomes a URL path segment)."""
    text = _string(value, "node name")
    if not NODE_NAME_RE.fullmatch(text):
        raise GrammarError(f"node name: {_show(value)} is not a DNS label")
    return text


@functools.lru_cache(maxsize=65536)
def _canonical_ip(text: str, what: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    # Cached: a pass re-validates thousands of the same strings.
    if "%" in text:
        raise GrammarError(f"{what}: {_show(text)} carries a scope id")
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        raise GrammarError(f"{what}: {_show(text)} is not an IP address") from None
    if str(ip) != text or (ip.version == 6 and ip.ipv4_mapped is not None):
        raise GrammarError(f"{what}: {_show(text)} is not in canonical form")
    return ip


def address(value: object, what: str = "address") -> str:
    """A canonical IPv4 or IPv6 address: no scope id, no prefix, no padding."""
    text = _string(value, what)
    _canonical_ip(text, what)
    return text


def _unicast(ip: ipaddress.IPv4Address | ipaddress.IPv6Address, what: str, text: str) -> None:
    if ip.is_multicast or ip.is_unspecified or ip.is_loopback or ip.is_link_local:
        raise GrammarError(f"{what}: {text} is not a unicast address a node can use")


@functools.lru_cache(maxsize=65536)
def _canonical_interface(text: str, what: str) -> ipaddress.IPv4Interface | ipaddress.IPv6Interface:
    host, slash, prefix = text.partition("/")
    if not slash or not (prefix.isascii() and prefix.isdigit()):
        raise GrammarError(f"{what}: {_show(text)} is not ADDRESS/PREFIX")
    ip = _canonical_ip(host, what)
    iface = ipaddress.ip_interface(f"{host}/{int(prefix)}") if int(prefix) <= ip.max_prefixlen else None
    if iface is None or str(iface) != text:
        raise GrammarError(f"{what}: {_show(text)} is not in canonical ADDRESS/PREFIX form")
    _unicast(ip, what, text)
    return iface


def interface_address(value: object, what: str = "interface address") -> str:
    """A unicast host address with its prefix length, canonical (e.g. 10.0.0.5/24)."""
    text = _string(value, what)
    _canonical_interface(text, what)
    return text


def gateway(value: object, what: str = "gateway") -> str:
    """A next hop: canonical unicast IPv4 (the tenant default route's source is a CGNAT IPv4)."""
    text = address(value, what)
    ip = _canonical_ip(text, what)
    if ip.version != 4:
        raise GrammarError(f"{what}: {text} is not IPv4")
    _unicast(ip, what, text)
    return text


def multicast_group(value: object, what: str = "multicast group") -> str:
    """A canonical multicast address (VXLAN BUM traffic)."""
    text = address(value, what)
    if not _canonical_ip(text, what).is_multicast:
        raise GrammarError(f"{what}: {text} is not a multicast address")
    return text


@functools.lru_cache(maxsize=65536)
def _canonical_network(text: str, what: str) -> ipaddress.IPv4Network | ipaddress.IPv6Network:
    host, slash, prefix = text.partition("/")
    if not slash or not (prefix.isascii() and prefix.isdigit()):
        raise GrammarError(f"{what}: {_show(text)} is not NETWORK/PREFIX")
    _canonical_ip(host, what)
    try:
        net = ipaddress.ip_network(text, strict=True)
    except ValueError:
        raise GrammarError(f"{what}: {_show(text)} has host bits set or a bad prefix") from None
    if str(net) != text:
        raise GrammarError(f"{what}: {_show(text)} is not in canonical form")
    return net


def network(value: object, what: str = "network") -> str:
    """A canonical network (host bits clear), e.g. 10.10.0.0/16."""
    text = _string(value, what)
    _canonical_network(text, what)
    return text


def uid(value: object, what: str = "uid") -> int:
    """A POSIX UID a tenant may hold: never root, never (uid_t)-1."""
    return integer(value, 1, UID_MAX, what)


def interface(item: object, where: str = "interface") -> dict:
    """One underlay interface record: {"name", "address", optional IPv4 "gateway"}."""
    if not isinstance(item, dict):
        raise GrammarError(f"{where}: expected an object with name and address")
    unknown = set(item) - INTERFACE_KEYS
    if unknown:
        raise GrammarError(f"{where}: unknown keys {sorted(map(str, unknown))}")
    if "name" not in item or "address" not in item:
        raise GrammarError(f"{where}: name and address are required")
    address = interface_address(item["address"], f"{where}.address")
    record = {"name": ifname(item["name"], f"{where}.name"), "address": address, "gateway": None}
    if item.get("gateway") is not None:
        record["gateway"] = gateway(item["gateway"], f"{where}.gateway")
        if ipaddress.ip_interface(address).version != 4:
            raise GrammarError(f"{where}.gateway: an IPv4 gateway needs an IPv4 interface address")
    return record


def interfaces(items: object) -> list[dict]:
    """A node's underlay interfaces: valid records, unique names, at most MAX_INTERFACES."""
    if not isinstance(items, list | tuple):
        raise GrammarError("interfaces: expected a list")
    if len(items) > MAX_INTERFACES:
        raise GrammarError(f"interfaces: more than {MAX_INTERFACES}")
    records = [interface(item, f"interfaces[{i}]") for i, item in enumerate(items)]
    names = [r["name"] for r in records]
    duplicate = next((n for n in names if names.count(n) > 1), None)
    if duplicate:
        raise GrammarError(f"interfaces: {duplicate!r} appears twice")
    return records


NFT_STRIP = re.compile(r'"[^"\n]*"|#[^\n]*')  # strings and comments, whichever starts first
NFT_BLOCK = re.compile(r"\{[^{}]*\}")  # an innermost block
BLOCK = "\x00"  # stands for a collapsed block (control characters are refused before)
CONTROL = dict.fromkeys([*range(9), *range(11, 32), 127])  # all but tab and newline


def portal_ruleset(value: object) -> str:
    """The portal's nftables text: statements about `inet enclave` only, no `include`."""
    text = _string(value, "nftables")
    _checked_ruleset(text)
    return text


@functools.lru_cache(maxsize=4)
def _checked_ruleset(text: str) -> None:
    # Whole-text passes in C, no per-character Python: rulesets of thousands of tenants are
    # megabytes, and checking a new document must stay cheap (~0.1 s for 10,000 tenant chains).
    if len(text.translate(CONTROL)) != len(text):
        raise GrammarError("nftables: control character")
    bare = NFT_STRIP.sub("", text)  # what is left of a string or comment cannot open a statement
    if '"' in bare:
        raise GrammarError("nftables: unterminated string")
    if "include" in bare and NFT_INCLUDE.search(bare):
        raise GrammarError("nftables: 'include' would read files on the node")
    collapsed, count = bare, 1
    while count:
        collapsed, count = NFT_BLOCK.subn(BLOCK, collapsed)
    if "{" in collapsed or "}" in collapsed:
        raise GrammarError("nftables: unbalanced braces")
    for statement in re.split(r"[;\n]", collapsed):
        if statement.strip() and not PORTAL_STATEMENT.fullmatch(statement.strip()):
            shown = statement.strip().replace(BLOCK, "{ ... }")
            raise GrammarError(f"nftables: top-level statement {_show(shown)} is not about table inet enclave")
