"""The desired-state wire format, shared by the portal (which imports it) and the agent.

Schema 2 sends what every tenant shares once: the node's VXLAN underlays live in
`node.vxlans` and each tenant's devices are derived from them (`expand`), so the tenants part
of a document is the same for every node of a pool and the portal can store it once.
"""

from __future__ import annotations

import hashlib
import ipaddress
import zlib

from .grammar import IFNAMSIZ  # noqa: F401 (re-exported: one definition of the kernel's limit)

SCHEMA_VERSION = 2  # the newest document schema this package reads and the portal writes
TABLE_BASE = 0x0100_0000  # VRF tables live above every 24-bit VNI-derived id, below 2^32
CGNAT = ipaddress.IPv4Network("100.64.0.0/10")
VXLAN_TTL = 5
# A document travels gzip-encoded when the agent asks (17x smaller: 3 MB is 180 KB at 10,000 tenants,
# and one site change sends it to every node). The agent refuses more than this much decoded.
GZIP, DOCUMENT_LIMIT = "gzip", 256 * 2**20
_GZIP_WBITS = 31  # zlib's gzip framing

# Document keys (top level, node, tenant, VXLAN underlay).
SCHEMA, GENERATION, NODE, TENANTS, NFTABLES = "schema", "generation", "node", "tenants", "nftables"
NAME, ADDRESS, INTERFACES, GATEWAY, VXLANS = "name", "address", "interfaces", "gateway", "vxlans"
ID, VRF, TABLE, VNI, CGNAT_KEY, UIDS = "id", "vrf", "table", "vni", "cgnat", "uids"
DEVICE, UNDERLAY, DSTPORT, GROUP, PEERS, TTL = "device", "underlay", "dstport", "group", "peers", "ttl"


class SchemaError(ValueError):
    """A document of a schema this agent does not know (newer portal): refuse, keep the old state."""


def vxlan_name(dev: str, tenant_id: int) -> str:
    """`<dev>u<id>` as in the UVN paper, shortened with a hash suffix when over IFNAMSIZ."""
    name = f"{dev}u{tenant_id}"
    if len(name) <= IFNAMSIZ:
        return name
    return f"{dev[: IFNAMSIZ - 8]}u{hashlib.sha256(name.encode()).hexdigest()[:6]}"


def ipoib_name(parent: str, pkey: int) -> str:
    """`<parent>.<pkey with the full-member bit, 4 hex>` as the kernel names children, hashed past IFNAMSIZ."""
    name = f"{parent}.{pkey | 0x8000:04x}"
    if len(name) <= IFNAMSIZ:
        return name
    return f"{parent[: IFNAMSIZ - 8]}p{hashlib.sha256(name.encode()).hexdigest()[:6]}"


def vrf_name(tenant_id: int) -> str:
    """The tenant's VRF device (UVN names VRFs after the tenant id)."""
    return f"vrf{tenant_id}"[:IFNAMSIZ]


def schema_of(data: dict) -> int:
    """The document's schema; documents without one are schema 1 (per-tenant VXLAN lists)."""
    schema = data.get(SCHEMA, 1)
    if not isinstance(schema, int) or isinstance(schema, bool) or not 1 <= schema <= SCHEMA_VERSION:
        raise SchemaError(f"desired-state schema {schema!r} is not supported (this agent reads 1..{SCHEMA_VERSION})")
    return schema


def expand(data: dict) -> dict:
    """A document in the schema-1 shape: every tenant carries its own VXLAN devices."""
    if schema_of(data) == 1:
        return data
    underlays = data[NODE].get(VXLANS) or ()
    return {**data, TENANTS: [_with_vxlans(tenant, underlays) for tenant in data.get(TENANTS, ())]}


def _with_vxlans(tenant: dict, underlays: list[dict] | tuple[()]) -> dict:
    try:
        tenant_id = int(tenant[ID])
        return {**tenant, VXLANS: [{DEVICE: vxlan_name(u[UNDERLAY], tenant_id), **u} for u in underlays]}
    except (KeyError, TypeError, ValueError):
        return tenant  # the parser reports this tenant as invalid, without taking the others down


def gunzip(data: bytes, limit: int = DOCUMENT_LIMIT) -> bytes:
    """Decode a gzip stream of one or more members, refusing past `limit` bytes decoded (a bomb)."""
    out, size = [], 0
    while data:
        unpacker = zlib.decompressobj(_GZIP_WBITS)
        try:
            chunk = unpacker.decompress(data, limit - size + 1)  # never 0: 0 would mean unbounded
        except zlib.error as exc:
            raise ValueError(f"not a gzip stream: {exc}") from None
        size += len(chunk)
        if size > limit:
            raise ValueError(f"the document is larger than {limit} bytes decoded")
        if not unpacker.eof:
            raise ValueError("the gzip stream is cut short")
        out.append(chunk)
        data = unpacker.unused_data
    return b"".join(out)
