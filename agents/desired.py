"""The desired-state document in the agent's wire format (enclave_agent.wire), built from stored parts.

A document is three stored parts joined as text: the pool's tenants and ruleset (PoolDocument),
which every node of the pool shares, then the node's own part (Node.desired_node). Serving one
is string concatenation; compiling happens once per change (agents.refresh).
"""

import hashlib
import ipaddress
import json
from collections import Counter

from enclave_agent import wire

from netpolicy.compiler import nft

TABLE_BASE, IFNAMSIZ, CGNAT, SCHEMA_VERSION = wire.TABLE_BASE, wire.IFNAMSIZ, wire.CGNAT, wire.SCHEMA_VERSION
EMPTY_TENANTS, EMPTY_NFTABLES = "[]", json.dumps("")


def _json(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def cgnat_for(tenant_id: int, base=CGNAT) -> str:
    """The tenant's host route source, derived from its id inside the site's CGNAT pool (or the /10)."""
    if tenant_id + 1 >= base.num_addresses:
        base = CGNAT  # the admin's pool is too small for this id; the whole range still is unique
    return f"{base.network_address + tenant_id + 1}/32"


# ---------------------------------------------------------------- the node's own part


def _underlays(interfaces, subnets, group: str) -> list[dict]:
    """The node's interfaces inside a subnet of interest of its pool: one VXLAN per tenant on each."""
    nets = [(ipaddress.ip_network(cidr), port) for cidr, port in subnets]
    result = []
    for iface in interfaces:
        address = ipaddress.ip_interface(iface["address"])
        port = next((p for net, p in nets if address.ip in net), None)
        if port is not None:
            result.append({wire.UNDERLAY: iface["name"], wire.DSTPORT: port, wire.ADDRESS: iface["address"],
                           wire.GROUP: group, wire.TTL: wire.VXLAN_TTL})  # fmt: skip
    return result


IPOIB_PARENTS, PKEY = "ipoib_parents", "pkey"  # the fabric contract's node-document keys (issue 32)


def node_part(node, subnets, group: str) -> str:
    """The node's own part of its document (JSON text): name, address, interfaces, VXLAN underlays."""
    interfaces = [{wire.NAME: i["name"], wire.ADDRESS: i["address"], wire.GATEWAY: i.get("gateway")}
                  for i in node.interfaces]  # fmt: skip
    part = {wire.NAME: node.name, wire.ADDRESS: str(node.address or ""), wire.INTERFACES: interfaces,
            wire.VXLANS: _underlays(node.interfaces, subnets, group)}  # fmt: skip
    parents = sorted({p["netdev"] for p in getattr(node, "ib_ports", None) or [] if p.get("netdev")})
    if parents:  # schema 2, additive: the agent creates each tenant's IPoIB child of these for its P_Key
        part[IPOIB_PARENTS] = parents
    return _json(part)


# ---------------------------------------------------------------- a tenant's part


def tenant_entry(tenant_id: int, vni: int, uids, cgnat_base=CGNAT) -> dict:
    """The tenant's document entry: VRF, VNI, CGNAT /32 and all member UIDs (filtered per pool)."""
    return {wire.ID: tenant_id, wire.VRF: {wire.NAME: wire.vrf_name(tenant_id), wire.TABLE: TABLE_BASE + tenant_id},
            wire.VNI: vni, wire.CGNAT_KEY: cgnat_for(tenant_id, cgnat_base), wire.UIDS: sorted(uids)}  # fmt: skip


def part_digest(entry: dict, nft_part: dict) -> str:
    return sha256(_json([entry, nft_part]))


# ---------------------------------------------------------------- the pool's shared part


def pool_parts(entries: list[dict], site: nft.SitePart, nft_parts: list[nft.TenantPart]) -> tuple[str, str]:
    """(tenants JSON, ruleset as a JSON string) of a pool, assembled from its tenants' parts."""
    # A user in two tenants of one pool is placed in neither: a session must not pick a tenant.
    counts = Counter(uid for entry in entries for uid in set(entry[wire.UIDS]))
    tenants = [{**e, wire.UIDS: [u for u in e[wire.UIDS] if counts[u] == 1]}
               for e in sorted(entries, key=lambda e: e[wire.ID])]  # fmt: skip
    ruleset = nft.assemble(site, nft_parts) if nft_parts else ""
    return _json(tenants), json.dumps(ruleset)


def pool_digest(tenants: str, nftables: str, schema: int = SCHEMA_VERSION) -> str:
    return sha256(f"{schema}\n{tenants}\n{nftables}")


# ---------------------------------------------------------------- the contract's versions (enclave_agent.wire)

# The schemas the portal writes. Schema 1 is not among them: its tenants carry each node's own VXLAN
# devices, so a pool could no longer share one stored document; a schema-1-only agent is told to upgrade.
WRITES = (2,)
# A node that never said what it reads runs an agent older than the contract: those read schema 2 (and 1),
# and counting them as reading 2 only keeps a future schema 3 from being written to them unasked.
UNREPORTED_READS = (2,)


def reads_of(wire_reads) -> tuple[int, ...]:
    """What a node reads, as stored (Node.wire_reads), counting a node that never said as schema 2."""
    return tuple(wire_reads) or UNREPORTED_READS


def pool_schema(nodes_reads) -> int:
    """The newest written schema every node (of its reads) reads; with none common, the newest written."""
    common = set(WRITES).intersection(*(reads_of(r) for r in nodes_reads))
    return max(common or WRITES)


def wire_note(wire_reads, pool_name: str, schema: int | None) -> str:
    """What the node page says of a node's contract: whether it cannot read or holds back its pool's schema."""
    reads = reads_of(wire_reads)
    if schema is None:
        return ""
    if schema not in reads:
        return f"cannot read its pool's schema {schema} (reads {_listed(reads)}): upgrade the agent"
    if schema < max(WRITES) and max(reads) < max(WRITES):
        return f"reads schema ≤ {max(reads)}: holds pool {pool_name} at schema {schema}"
    return ""


def _listed(reads) -> str:
    return ", ".join(str(v) for v in reads)


def node_digest(node_json: str, pool_digest_: str) -> str:
    """Names what a node's generation stands for (its part and its pool's); also in SQL (refresh)."""
    return sha256(node_json + pool_digest_)


# ---------------------------------------------------------------- serving


def etag(generation: int, node_json: str, pool_digest_: str) -> str:
    """The HTTP entity tag of the document that these parts make."""
    return f'"{generation}.{node_digest(node_json, pool_digest_)[:24]}"'


def weak(tag: str) -> str:
    """The tag of the gzip-encoded document: weak, as its bytes differ from the plain one's."""
    return tag if tag.startswith("W/") else f"W/{tag}"


def same_document(known: str | None, tag: str) -> bool:
    """If-None-Match's weak comparison (RFC 9110, 13.1.2): either coding's tag names the document."""
    return known is not None and known.removeprefix("W/") == tag.removeprefix("W/")


def node_tail(generation: int, node_json: str, schema: int = SCHEMA_VERSION) -> bytes:
    """The document's last bytes: schema, generation and the node's own part (closes the object)."""
    text = f'"{wire.SCHEMA}":{int(schema)},"{wire.GENERATION}":{int(generation)},"{wire.NODE}":{node_json}}}'
    return text.encode()


def body(generation: int, node_json: str, pool_fragment: bytes, schema: int = SCHEMA_VERSION) -> bytes:
    """The document's bytes: the pool's stored fragment, then the node's own part."""
    return pool_fragment + node_tail(generation, node_json, schema)


def pool_fragment(tenants: str, nftables: str) -> bytes:
    """The start of every document of a pool; it comes first so that it is compressed once (deflate)."""
    return f'{{"{wire.TENANTS}":{tenants},"{wire.NFTABLES}":{nftables},'.encode()
