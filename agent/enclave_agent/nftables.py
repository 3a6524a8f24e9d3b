"""Compose the node's single atomic nftables transaction (pure text, no I/O)."""

from __future__ import annotations

import hashlib
import ipaddress

from .state import CGNAT, DesiredState

PORTAL_TABLE = ("inet", "enclave")  # compiled by the portal, replaced wholesale
AGENT_TABLE = ("inet", "enclave_agent")  # the agent's own guard + SNAT table


def _replace(family: str, name: str) -> str:
    # "add" then "delete" makes the delete valid whether or not the table exists.
    return f"add table {family} {name}\ndelete table {family} {name}\n"


def agent_table(desired: DesiredState, digest: str) -> str:
    """Guard VXLAN ports to the underlay (defect 1), SNAT CGNAT traffic to the node address."""
    ifs = desired.node.interfaces
    ports = sorted({v.dstport for t in desired.tenants for v in t.vxlans})
    underlay = ", ".join(f'"{i.name}"' for i in ifs) or '"lo"'
    lines = [
        f"table {AGENT_TABLE[0]} {AGENT_TABLE[1]} {{",
        f'  comment "digest={digest}"',
        "  set underlay {",
        "    type ifname",
        f"    elements = {{ {underlay} }}",
        "  }",
        "  chain input {",
        "    type filter hook input priority -10; policy accept;",
    ]
    if ports:
        plist = ", ".join(map(str, ports))
        lines.append(f"    udp dport {{ {plist} }} iifname != @underlay counter drop")
    lines += [
        "  }",
        "  chain forward {",
        "    type filter hook forward priority -10; policy accept;",
        f"    ip daddr {CGNAT} ct state established,related accept",
        f"    ip daddr {CGNAT} counter drop",
        "  }",
        "  chain postrouting {",
        "    type nat hook postrouting priority 100; policy accept;",
    ]
    for i in ifs:
        addr = ipaddress.ip_interface(i.address).ip
        if addr.version == 4:  # CGNAT is IPv4: only an IPv4 underlay can carry its SNAT
            lines.append(f'    oifname "{i.name}" ip saddr {CGNAT} snat ip to {addr}')
    lines += ["  }", "}"]
    return "\n".join(lines) + "\n"


def transaction(desired: DesiredState) -> tuple[str, str]:
    """(digest, text) of one `nft -f` transaction replacing both owned tables atomically."""
    digest = hashlib.sha256(
        (
            desired.nftables + repr(desired.node) + repr(sorted({v.dstport for t in desired.tenants for v in t.vxlans}))
        ).encode()
    ).hexdigest()[:16]
    text = _replace(*PORTAL_TABLE) + desired.nftables.rstrip() + "\n"
    text += _replace(*AGENT_TABLE) + agent_table(desired, digest)
    return digest, text
