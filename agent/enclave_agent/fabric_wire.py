"""The fabric agent's wire contract (schema 1): what the portal sends a subnet manager's host, and what comes back.

Shared by the portal (which imports it to write desired documents and check reports) and the fabric
agent (which refuses any document that fails `parse_desired`, applying nothing of it). Values are
lexical first: a port GUID is `0x` and 16 lower-case hex digits, a partition key `0x` and 4; a
partition's name in OpenSM's `partitions.conf` is derived from its key, never from tenant text.

Desired document (GET /api/v1/fabric-agents/<fabric>/desired, ETag/If-None-Match as the node agent's):
    {"schema": 1, "generation": 7, "fabric": "ib0", "kind": "opensm",
     "shared": {"full": ["0x…"]},                       # storage/service ports: full members of 0x7fff
     "partitions": [{"pkey": "0x0012", "ipoib": true, "mtu": 4, "full": ["0x…", ...]}]}
Every port not named in `shared.full` is at most a limited member of the default partition 0x7fff
(IPoIB broadcast and SA queries keep working, limited-to-limited traffic does not). A port GUID may be a
full member of one tenant partition at most, and a shared port of none (the portal never sends either;
the agent refuses both).

Report (POST /api/v1/fabric-agents/<fabric>/report):
    {"schema": 1, "reads": [1], "generation": 7, "applied_generation": 7, "errors": ["…"],
     "ports": {"0x…": ["0x8012", "0xffff"]},          # each port's P_Key table as the fabric programmed it
     "sm": {"kind": "opensm", "version": "3.3.23", "m_key": true, "m_key_protect": 2, "sm_key": true,
            "foreign_sms": ["0x…"]}}
P_Key table entries keep the membership bit: 0x8000 set is a full member, clear a limited one.
"""

from __future__ import annotations

import re

SCHEMA_VERSION = 1  # the newest fabric document schema this package reads and the portal writes
DEFAULT_PKEY = 0x7FFF
PKEY_MIN, PKEY_MAX = 0x0001, 0x7FFE  # tenant partitions: 15-bit keys, never the default one
FULL_BIT = 0x8000
MAX_PORTS = 65_536  # a subnet's unicast LID space bounds its ports
MAX_PARTITIONS = 32_766
IB_MTUS = (1, 2, 3, 4, 5)  # OpenSM's mtu codes: 256, 512, 1024, 2048, 4096 bytes
KINDS = ("opensm", "ufm")

# Document and report keys.
SCHEMA, GENERATION, FABRIC, KIND, SHARED, PARTITIONS = "schema", "generation", "fabric", "kind", "shared", "partitions"
PKEY, IPOIB, MTU, FULL = "pkey", "ipoib", "mtu", "full"
READS, APPLIED, ERRORS, PORTS, SM = "reads", "applied_generation", "errors", "ports", "sm"

GUID_RE = re.compile(r"0x[0-9a-f]{16}")
PKEY_RE = re.compile(r"0x[0-9a-f]{4}")
FABRIC_RE = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?")


class FabricError(ValueError):
    """A value or document that must never reach partitions.conf or the subnet manager."""


def guid(value: object, what: str = "port GUID") -> str:
    """A port GUID in canonical form (`0x` + 16 lower-case hex digits, not zero)."""
    if not isinstance(value, str) or not GUID_RE.fullmatch(value) or int(value, 16) == 0:
        raise FabricError(f"{what}: expected 0x and 16 lower-case hex digits, not {value!r:.60}")
    return value


def pkey(value: object, low: int = PKEY_MIN, high: int = PKEY_MAX) -> int:
    """A partition key (`0x` + 4 lower-case hex digits, membership bit clear) within [low, high]."""
    if not isinstance(value, str) or not PKEY_RE.fullmatch(value):
        raise FabricError(f"partition key: expected 0x and 4 lower-case hex digits, not {value!r:.60}")
    number = int(value, 16)
    if not low <= number <= high:
        raise FabricError(f"partition key {value} is outside 0x{low:04x}..0x{high:04x}")
    return number


def pkey_text(number: int) -> str:
    """The canonical text of a 15-bit partition key."""
    return f"0x{number & 0x7FFF:04x}"


def partition_name(number: int) -> str:
    """The partition's name in partitions.conf: derived from its key, so no tenant text reaches OpenSM."""
    return f"enclave_{number & 0x7FFF:04x}"


def _integer(value: object, low: int, high: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise FabricError(f"{what}: expected an integer within {low}..{high}, not {value!r:.60}")
    return value


def _guids(values: object, what: str) -> list[str]:
    if not isinstance(values, list) or len(values) > MAX_PORTS:
        raise FabricError(f"{what}: expected a list of at most {MAX_PORTS} port GUIDs")
    out = [guid(v, what) for v in values]
    if len(set(out)) != len(out):
        raise FabricError(f"{what}: a port GUID is listed twice")
    return out


def _partition(item: object) -> dict:
    if not isinstance(item, dict) or set(item) - {PKEY, IPOIB, MTU, FULL}:
        raise FabricError(f"partition: expected keys {PKEY}, {IPOIB}, {MTU}, {FULL}")
    ipoib = item.get(IPOIB, True)
    if not isinstance(ipoib, bool):
        raise FabricError("partition ipoib: expected true or false")
    mtu = _integer(item.get(MTU, 4), min(IB_MTUS), max(IB_MTUS), "partition mtu")
    number = pkey(item.get(PKEY))
    return {PKEY: pkey_text(number), IPOIB: ipoib, MTU: mtu, FULL: _guids(item.get(FULL, []), "partition full")}


def parse_desired(data: object) -> dict:
    """A desired document checked whole, in canonical form; raises FabricError and applies nothing."""
    if not isinstance(data, dict):
        raise FabricError("desired state: expected an object")
    schema = data.get(SCHEMA)
    if isinstance(schema, bool) or not isinstance(schema, int) or not 1 <= schema <= SCHEMA_VERSION:
        raise FabricError(f"fabric schema {schema!r} is not supported (this agent reads 1..{SCHEMA_VERSION})")
    name = data.get(FABRIC)
    if not isinstance(name, str) or not FABRIC_RE.fullmatch(name):
        raise FabricError(f"fabric name: {name!r:.60} is not a DNS label")
    if data.get(KIND) not in KINDS:
        raise FabricError(f"fabric kind: expected one of {', '.join(KINDS)}")
    shared = data.get(SHARED) or {}
    if not isinstance(shared, dict) or set(shared) - {FULL}:
        raise FabricError("shared: expected an object with a full list")
    items = data.get(PARTITIONS)
    if not isinstance(items, list) or len(items) > MAX_PARTITIONS:
        raise FabricError(f"partitions: expected a list of at most {MAX_PARTITIONS}")
    partitions = [_partition(item) for item in items]
    _check_disjoint(partitions)
    shared_full = _guids(shared.get(FULL, []), "shared full")
    tenant_ports = {port for part in partitions for port in part[FULL]}
    both = sorted(tenant_ports.intersection(shared_full))
    if both:  # full in 0x7fff, it would reach every tenant's (limited) ports
        raise FabricError(f"port {both[0]} is a shared port and a member of a tenant partition")
    return {SCHEMA: schema, GENERATION: _integer(data.get(GENERATION), 0, 2**63 - 1, "generation"),
            FABRIC: name, KIND: data[KIND], SHARED: {FULL: shared_full}, PARTITIONS: partitions}  # fmt: skip


def _check_disjoint(partitions: list[dict]) -> None:
    """No key twice, and no port a full member of two tenant partitions."""
    keys = [p[PKEY] for p in partitions]
    if len(set(keys)) != len(keys):
        raise FabricError("partitions: a partition key is listed twice")
    owner: dict[str, str] = {}
    for part in partitions:
        for port in part[FULL]:
            if owner.setdefault(port, part[PKEY]) != part[PKEY]:
                raise FabricError(f"port {port} is a full member of {owner[port]} and {part[PKEY]}")


def table_entry(value: object) -> int:
    """One P_Key table entry as reported (`0x` + 4 hex digits, membership bit kept)."""
    if not isinstance(value, str) or not PKEY_RE.fullmatch(value):
        raise FabricError(f"P_Key table entry: expected 0x and 4 lower-case hex digits, not {value!r:.60}")
    return int(value, 16)


def is_full(entry: int) -> bool:
    """A P_Key table entry with the membership bit set: a full member."""
    return bool(entry & FULL_BIT)
