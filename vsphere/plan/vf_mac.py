"""A VF's InfiniBand port GUID and the MAC of its SR-IOV adapter: ESXi's driver makes the one from the other.

ESXi sees an InfiniBand PF as Ethernet (FORCE_ETH_PCI_SUBCLASS) and gives each SR-IOV passthrough adapter a MAC
address; the VF's port GUID is that MAC with ff:fe inserted in its middle (VMware's "InfiniBand SR-IOV
Setup and Performance Study on vSphere 7.x", figure 20: the guest's ib0 has GID interface id
0050:56ff:feb3:9ec1). Enclave so sets a VF's port GUID by setting its adapter's MAC, and reads it back
from the MAC vCenter reports.
"""

import re

GUID_FORM = re.compile(r"\A0x([0-9a-f]{6})fffe([0-9a-f]{6})\Z")
MAC_FORM = re.compile(r"\A[0-9a-f]{2}(?::[0-9a-f]{2}){5}\Z")
BLOCK = 1 << 24  # the GUIDs one MAC prefix carries: its last three octets


def mac_for_guid(guid: str | None) -> str:
    """The adapter MAC that gives a VF this port GUID ("" when no unicast MAC carries it)."""
    found = GUID_FORM.fullmatch(guid or "")
    if found is None or int(found.group(1)[:2], 16) & 1:  # a multicast first octet is no adapter's address
        return ""
    hexdigits = found.group(1) + found.group(2)
    return ":".join(hexdigits[i : i + 2] for i in range(0, 12, 2))


def guid_for_mac(mac: str | None) -> str:
    """The port GUID a VF gets from its adapter's MAC ("" for a malformed MAC)."""
    mac = (mac or "").lower()
    if not MAC_FORM.fullmatch(mac):
        return ""
    octets = mac.replace(":", "")
    return f"0x{octets[:6]}fffe{octets[6:]}"


def range_problem(first: int, count: int) -> str:
    """Why Enclave cannot set every GUID of this VF range through a MAC ("" when it can)."""
    if not mac_for_guid(f"0x{first:016x}"):
        return ("VF port GUIDs are set through the VF adapter's MAC address (ESXi makes the GUID from it by "
                "inserting ff:fe), so the range must start at a GUID of the form 0xXXXXXXfffeYYYYYY with a unicast "
                "first octet, for example 0x005056fffe000000 (VMware's static MACs 00:50:56:00:00:00 on).")  # fmt: skip
    if (first % BLOCK) + count > BLOCK:
        return "The VF GUID range must stay within one MAC prefix: its last six hex digits plus the count ≤ 0x1000000."
    return ""
