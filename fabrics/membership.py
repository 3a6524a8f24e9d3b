"""Membership from intent, and what a fabric's report says of it: pure functions, no database.

A claim says a tenant's workload uses a port (a cluster VM's VF, a node's HCA port). Every claimed port
is a full member of its tenant's partition and of no other tenant's; a port two tenants claim (a node
pool shared by tenants' segments) is made a member of neither and reported as a conflict: granting it
both keys would join the two partitions through that port.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from dataclasses import dataclass, field

from enclave_agent import fabric_wire as wire

MAX_TABLE = 512  # P_Key table entries of one port (HCAs hold 128; switch ports may report more)


@dataclass(frozen=True)
class Claim:
    """A port a tenant's workload uses, and what uses it (for messages)."""

    tenant_id: int
    guid: str
    source: str


@dataclass
class Membership:
    """Each tenant's full-member ports, by tenant id; ports claimed by two tenants; the shared ports."""

    members: dict[int, list[str]] = field(default_factory=dict)
    conflicts: dict[str, list[int]] = field(default_factory=dict)
    shared: list[str] = field(default_factory=list)


def membership(claims: list[Claim], shared: list[str]) -> Membership:
    """Who is a full member of which tenant's partition; a shared port is never a tenant's member."""
    owners: dict[str, set[int]] = defaultdict(set)
    for claim in claims:
        owners[wire.guid(claim.guid)].add(claim.tenant_id)
    shared_set = {wire.guid(g) for g in shared}
    members: dict[int, list[str]] = defaultdict(list)
    conflicts = {}
    for guid, tenants in sorted(owners.items()):
        if len(tenants) > 1 or guid in shared_set:
            conflicts[guid] = sorted(tenants)
            continue
        members[next(iter(tenants))].append(guid)
    return Membership(dict(members), conflicts, sorted(shared_set))


def document(name: str, kind: str, generation: int, keys: dict[int, int], found: Membership) -> dict:
    """The desired document in fabric_wire's shape: one partition per tenant key, its members full."""
    partitions = [{wire.PKEY: wire.pkey_text(key), wire.IPOIB: True, wire.MTU: 4,
                   wire.FULL: sorted(found.members.get(tenant_id, []))}
                  for tenant_id, key in sorted(keys.items(), key=lambda item: item[1])]  # fmt: skip
    doc = {wire.SCHEMA: wire.SCHEMA_VERSION, wire.GENERATION: generation, wire.FABRIC: name, wire.KIND: kind,
           wire.SHARED: {wire.FULL: list(found.shared)}, wire.PARTITIONS: partitions}  # fmt: skip
    return wire.parse_desired(doc)  # the portal never sends what its own agent would refuse


def digest(doc: dict) -> str:
    """What the document says, generation aside: the same intent keeps its generation."""
    body = {k: v for k, v in doc.items() if k != wire.GENERATION}
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


# ---------------------------------------------------------------- the fabric's report


def parse_ports(ports: object) -> dict[str, list[int]]:
    """A report's port tables, every GUID and entry grammar-checked; raises wire.FabricError."""
    if not isinstance(ports, dict) or len(ports) > wire.MAX_PORTS:
        raise wire.FabricError(f"ports: expected an object of at most {wire.MAX_PORTS} port tables")
    tables = {}
    for guid, entries in ports.items():
        wire.guid(guid)
        if not isinstance(entries, list) or len(entries) > MAX_TABLE:
            raise wire.FabricError(f"ports {guid}: expected a list of at most {MAX_TABLE} P_Key table entries")
        tables[guid] = [wire.table_entry(e) for e in entries]
    return tables


@dataclass
class Verdict:
    """One partition in the fabric: realized; drift (a member lost it, or a port holds a foreign key); why."""

    realized: bool
    drift: bool
    problems: list[str]


def judge(doc: dict, tables: dict[str, list[int]], previous: dict[str, list[int]] | None = None) -> dict[str, Verdict]:
    """Per desired partition (by key text): are its members' tables as desired, and what is wrong.

    A member not programmed yet is pending; one that was a full member in the previous report and is not
    now, or a port that holds the default or another tenant's key as a full member, is drift."""
    tenant_keys = {wire.pkey(p[wire.PKEY]) for p in doc[wire.PARTITIONS]}
    verdicts = {}
    for part in doc[wire.PARTITIONS]:
        key = wire.pkey(part[wire.PKEY])
        problems, drift = [], False
        for guid in part[wire.FULL]:
            missing, foreign = _port_problems(guid, key, tables.get(guid), tenant_keys)
            lost = missing and key | wire.FULL_BIT in (previous or {}).get(guid, [])
            drift = drift or bool(foreign) or bool(lost)
            problems += missing + foreign
        verdicts[part[wire.PKEY]] = Verdict(not problems, drift, problems)
    return verdicts


def _port_problems(guid: str, key: int, table: list[int] | None, tenant_keys: set[int]) -> tuple[list[str], list[str]]:
    """(missing, foreign): the port lacks its key; the port is a full member of keys it must not hold."""
    if table is None:
        return [f"port {guid} is not in the fabric's report"], []
    missing = [] if key | wire.FULL_BIT in table else [f"port {guid} is not a full member of {wire.pkey_text(key)}"]
    foreign = []
    for other in sorted({e & 0x7FFF for e in table if wire.is_full(e) and e & 0x7FFF != key}):
        # Another tenant's key is not named: this text reaches the tenant's pages and API.
        what = "the default partition" if other == wire.DEFAULT_PKEY else "another tenant's partition"
        if other == wire.DEFAULT_PKEY or other in tenant_keys:
            foreign.append(f"port {guid} is also a full member of {what}")
    return missing, foreign


def port_in_partition(tables: dict[str, list[int]], guid: str, key: int) -> bool:
    """The fabric reports this port as a full member of the key, and of no other partition as a full member."""
    table = tables.get(guid) or []
    others = [e for e in table if wire.is_full(e) and e & 0x7FFF != key]
    return key | wire.FULL_BIT in table and not others
