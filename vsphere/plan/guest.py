"""Guest customization as pure data: which address each NIC gets, and whether the guest drifted.

The adapter mapping of a customization spec follows the VM's NIC order: the NICs it keeps (by
device key), then the ones added in this run in the order they are added. The primary adapter
gets the node's fixed address and the segment's gateway, each VF and the PVRDMA adapter its own
address, the management NIC DHCP.
"""

from __future__ import annotations

from vsphere.plan.specs import ClusterIntent, NicRole, NodeIntent, ObservedNic, ObservedVM

GuestNics = list[tuple[str, bool]]  # per NIC: (fixed address or "" for DHCP, carries the gateway)


def role_of(nic: ObservedNic, intent: ClusterIntent, pg_key: str | None) -> NicRole:
    """What a kept NIC is for (the planner removed every NIC that is none of these)."""
    if nic.is_sriov:
        return NicRole.SRIOV
    if nic.is_pvrdma:
        return NicRole.PVRDMA
    return NicRole.PRIMARY if pg_key and nic.portgroup_key == pg_key else NicRole.MANAGEMENT


def guest_nics(node: NodeIntent, roles: list[NicRole]) -> GuestNics:
    """The address of each NIC, given the NICs' roles in the VM's order."""
    vfs = iter(node.sriov_ips)
    out = []
    for role in roles:
        if role == NicRole.PRIMARY:
            out.append((node.primary_ip, True))
        elif role == NicRole.SRIOV:
            out.append((next(vfs, ""), False))
        elif role == NicRole.PVRDMA:
            out.append((node.pvrdma_ip, False))
        else:
            out.append(("", False))
    return out


def describe(node: NodeIntent, nics: GuestNics) -> str:
    """Plan-preview text: host name and fixed addresses."""
    fixed = [ip for ip, _gw in nics if ip]
    return f"host name {node.host_name}, " + (", ".join(fixed) if fixed else "addresses after approval")


def drift(node: NodeIntent, intent: ClusterIntent, vm: ObservedVM, kept: list[ObservedNic], pg_key) -> list[str]:
    """How the guest differs from its customization: a host name or an address it reports wrongly.

    A NIC whose guest reports nothing yet (tools not running, customization in progress) is not drift.
    """
    if intent.guest is None or not node.primary_ip or vm.customization_pending:
        return []
    found = []
    if vm.guest_host_name and vm.guest_host_name.split(".")[0] != node.host_name:
        found.append(f"host name {vm.guest_host_name} (want {node.host_name})")
    roles = [role_of(nic, intent, pg_key) for nic in kept]
    for nic, (want, _gw) in zip(kept, guest_nics(node, roles), strict=True):
        reported = vm.ips_of(nic.key)
        if want and reported and want not in reported:
            found.append(f"{nic.kind} reports {', '.join(reported)} (want {want})")
    return found
