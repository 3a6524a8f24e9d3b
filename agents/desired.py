"""The desired-state document of one node, in the wire format of enclave_agent.state."""

import hashlib
import ipaddress
import json
from dataclasses import dataclass

from agents.models import Node

TABLE_BASE = 0x0100_0000  # must match enclave_agent.state.TABLE_BASE
CGNAT = ipaddress.ip_network("100.64.0.0/10")
IFNAMSIZ = 15


@dataclass(frozen=True)
class TenantNetwork:
    """One tenant present on a pool: its overlay VNI, members' UIDs and subnet."""

    tenant_id: int
    slug: str
    vni: int
    subnet: str
    uids: tuple[int, ...]


def vxlan_name(dev: str, tenant_id: int) -> str:
    """`<dev>u<id>` as in the UVN paper, shortened with a hash when over IFNAMSIZ (as the agent does)."""
    name = f"{dev}u{tenant_id}"
    if len(name) <= IFNAMSIZ:
        return name
    return f"{dev[: IFNAMSIZ - 8]}u{hashlib.sha256(name.encode()).hexdigest()[:6]}"


def cgnat_for(tenant_id: int, base=CGNAT) -> str:
    """The tenant's host route source, derived from its id inside the site's CGNAT pool (or the /10)."""
    if tenant_id + 1 >= base.num_addresses:
        base = CGNAT  # the admin's pool is too small for this id; the whole range still is unique
    return f"{base.network_address + tenant_id + 1}/32"


def _matching_interfaces(node: Node) -> list[tuple[dict, int]]:
    """The node's interfaces inside a subnet of interest of its pool, with that subnet's port."""
    subnets = [(ipaddress.ip_network(s.cidr), s.dstport) for s in node.pool.subnets.all()]
    result = []
    for iface in node.interfaces:
        address = ipaddress.ip_interface(iface["address"])
        port = next((p for net, p in subnets if address.ip in net), None)
        if port is not None:
            result.append((iface, port))
    return result


def tenant_document(node: Node, net: TenantNetwork, cgnat_base=CGNAT) -> dict:
    """The per-tenant part: VRF, VNI, CGNAT /32, one VXLAN per matching interface, member UIDs."""
    vxlans = [
        {"device": vxlan_name(iface["name"], net.tenant_id), "underlay": iface["name"], "dstport": port,
         "address": iface["address"], "group": node.pool.multicast_group, "ttl": 5}
        for iface, port in _matching_interfaces(node)
    ]  # fmt: skip
    return {
        "id": net.tenant_id,
        "vrf": {"name": f"vrf{net.tenant_id}"[:IFNAMSIZ], "table": TABLE_BASE + net.tenant_id},
        "vni": net.vni,
        "cgnat": cgnat_for(net.tenant_id, cgnat_base),
        "vxlans": vxlans,
        "uids": sorted(net.uids),
    }


def build(node: Node, networks: list[TenantNetwork], nftables: str, cgnat_base=CGNAT) -> dict:
    """The whole document for a node (generation included)."""
    interfaces = [{"name": i["name"], "address": i["address"], "gateway": i.get("gateway")} for i in node.interfaces]
    return {
        "generation": node.desired_generation,
        "node": {"name": node.name, "address": str(node.address or ""), "interfaces": interfaces},
        "tenants": [tenant_document(node, net, cgnat_base) for net in sorted(networks, key=lambda n: n.tenant_id)],
        "nftables": nftables,
    }


def digest(document: dict) -> str:
    """A content hash of the document without its generation (detects real changes)."""
    body = {k: v for k, v in document.items() if k != "generation"}
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


def etag(document: dict) -> str:
    """The HTTP entity tag of a full document (generation included)."""
    return '"' + hashlib.sha256(json.dumps(document, sort_keys=True).encode()).hexdigest()[:32] + '"'
