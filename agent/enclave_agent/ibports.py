"""This node's InfiniBand ports, read from sysfs: device, port, port GUID and IPoIB interface.

The port GUID is the lower 64 bits of the port's GID 0 (the link-local GID carries it); the portal
puts it into the tenant's partition. Every value is grammar-checked here and again by the portal.
"""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

from . import fabric_wire, grammar

SYSFS = Path("/sys/class")
ARPHRD_INFINIBAND = "32"
DEVICE_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")
GID_RE = re.compile(r"fe80(?::[0-9a-f]{4}){7}")
MAX_PORTS = 64  # a node has a handful; a bound keeps a strange sysfs from inflating the report


def _read(path: Path) -> str | None:
    try:
        return path.read_text().strip()
    except OSError:
        return None


def port_guid(gid: str) -> str | None:
    """The port GUID in a link-local GID (`fe80:0000:0000:0000:0002:c903:00a1:b2c1`), canonical."""
    if not GID_RE.fullmatch(gid):
        return None
    value = "0x" + "".join(gid.split(":")[4:])
    try:
        return fabric_wire.guid(value)
    except fabric_wire.FabricError:
        return None


def _netdevs(root: Path) -> dict[tuple[str, int], str]:
    """IPoIB parent interfaces by (device, port): type 32, a device link, no `parent` (not a child)."""
    found: dict[tuple[str, int], str] = {}
    for net in sorted((root / "net").glob("*")):
        if _read(net / "type") != ARPHRD_INFINIBAND or (net / "parent").exists():
            continue
        port = _read(net / "dev_port")
        for dev in (net / "device" / "infiniband").glob("*"):
            if port is not None and port.isdigit():
                found.setdefault((dev.name, int(port) + 1), net.name)
    return found


def read(root: Path | None = None) -> list[dict]:
    """Every InfiniBand (not RoCE) port with a valid GUID: [{"device", "port", "guid", "netdev"}]."""
    root = root or SYSFS
    ports, netdevs = [], _netdevs(root)
    for dev in sorted((root / "infiniband").glob("*")):
        if not DEVICE_RE.fullmatch(dev.name):
            continue
        for port_dir in sorted((dev / "ports").glob("*")):
            if not port_dir.name.isdigit() or _read(port_dir / "link_layer") != "InfiniBand":
                continue
            guid = port_guid(_read(port_dir / "gids" / "0") or "")
            if guid is None:
                continue
            netdev = netdevs.get((dev.name, int(port_dir.name)))
            entry = {"device": dev.name, "port": int(port_dir.name), "guid": guid, "netdev": None}
            with contextlib.suppress(grammar.GrammarError):
                entry["netdev"] = grammar.ifname(netdev) if netdev else None
            ports.append(entry)
    return ports[:MAX_PORTS]
