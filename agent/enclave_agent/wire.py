"""The desired-state wire format, shared by the portal (which imports it) and the agent.

Schema 2 sends what every tenant shares once: the node's VXLAN underlays live in
`node.vxlans` and each tenant's devices are derived from them (`expand`), so the tenants part
of a document is the same for every node of a pool and the portal can store it once.

The contract has versions (as Neutron's agent RPC does): every agent request says which document
schemas the agent reads (`reads` in its join and every report, the `Enclave-Wire` header on every
request), and the portal writes a pool's document in the newest schema every live node of the pool
reads (agents.desired.pool_schema); a node that cannot read its pool's schema is answered 409
("upgrade the agent") instead of a document it would refuse. History:

- 1: each tenant carries its own VXLAN devices (`tenants[].vxlans`).
- 2: the node's VXLAN underlays are sent once (`node.vxlans`) and each tenant's devices are derived
  from them (`expand`). Later additive, optional keys that schema-2 readers ignore when absent:
  tenant `pkey` and node `ipoib_parents` (InfiniBand partitions, issue 32); the report's `ib_ports`.

A change an older reader would misread is a new schema, added to this history; an optional key an
older reader ignores is not.
"""

from __future__ import annotations

import hashlib
import ipaddress
import re
import zlib

from .grammar import IFNAMSIZ  # noqa: F401 (re-exported: one definition of the kernel's limit)

SCHEMA_VERSION = 2  # the newest document schema this package reads and the portal writes
READS = tuple(range(1, SCHEMA_VERSION + 1))  # every schema schema_of accepts, reported to the portal
WIRE_HEADER = "Enclave-Wire"  # request header: the schemas the agent reads, e.g. "1,2"
MAX_SCHEMA, MAX_READS = 99, 16  # what the portal accepts as a report of schemas read
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


def check_reads(value: object) -> tuple[int, ...]:
    """The schemas a reader reports, ascending; refuses anything but 1..16 distinct ints in 1..MAX_SCHEMA."""
    if not isinstance(value, list | tuple) or not 1 <= len(value) <= MAX_READS:
        raise SchemaError(f"the schemas read are a list of 1 to {MAX_READS} versions")
    if any(not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= MAX_SCHEMA for v in value):
        raise SchemaError(f"a schema version is an integer from 1 to {MAX_SCHEMA}")
    if len(set(value)) != len(value):
        raise SchemaError("a schema version is listed twice")
    return tuple(sorted(value))


def reads_header() -> str:
    """The Enclave-Wire header's value: the schemas this agent reads, comma-separated ("1,2")."""
    return ",".join(str(v) for v in check_reads(list(READS)))


_HEADER_ITEM = re.compile(r"[1-9][0-9]?")


def parse_reads_header(text: str) -> tuple[int, ...]:
    """The schemas an Enclave-Wire header names; refuses any other spelling (SchemaError)."""
    items = text.split(",") if isinstance(text, str) and len(text) <= 3 * MAX_READS else None
    if not items or not all(_HEADER_ITEM.fullmatch(item) for item in items):
        raise SchemaError(f"{WIRE_HEADER} is a comma-separated list of schema versions, e.g. 1,2")
    return check_reads([int(item) for item in items])


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
