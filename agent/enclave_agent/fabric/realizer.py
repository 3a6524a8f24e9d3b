"""What a subnet manager realizer does, and the isolation check every realizer's readback goes through.

A realizer turns a checked desired document (fabric_wire.parse_desired) into the SM's configuration
and reads back what the fabric programmed. OpenSM (opensm.py) is the first; NVIDIA UFM's REST API
fits the same three methods (its pkey API takes the same partitions and GUID lists, its port
records carry the tables).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

from .. import fabric_wire as fw
from .diags import DiagError, Diags


class RealizerError(RuntimeError):
    """The subnet manager could not be configured or read."""


@dataclass
class Applied:
    """What apply did: whether the SM was told to re-program, and notices for the report (drift)."""

    changed: bool = False
    notices: list[str] = field(default_factory=list)


class SubnetManager(ABC):
    """One fabric's subnet manager as the fabric agent drives it."""

    kind: str

    @abstractmethod
    def apply(self, desired: dict) -> Applied:
        """Make the SM program `desired` (a no-op when it already does); raises RealizerError."""

    @abstractmethod
    def observe(self, guids: set[str] | None = None) -> dict[str, list[int]]:
        """CA ports' P_Key tables as the fabric holds them, by port GUID (zero entries left out): every
        port's, or only those of `guids` that are on the fabric."""

    @abstractmethod
    def hardening(self) -> dict:
        """The report's `sm` facts: kind, version, m_key, m_key_protect, sm_key, foreign_sms."""

    def problems(self) -> list[str]:
        """What is wrong with the SM itself (another master, none answering); empty when nothing is."""
        return []

    def reprogram(self) -> bool:
        """Make the SM write every port's table again, whatever it believes they hold; False if it cannot."""
        return False

    def self_guids(self) -> set[str]:
        """The SM's own ports (full members of the default partition by configuration)."""
        return set()


class ReadsFabric:
    """The readback both realizers share: the ports' own tables and the SMs, through infiniband-diags."""

    diags: Diags
    _ports: dict
    _sm_ports: set
    _own: set | None = None

    def observe(self, guids: set[str] | None = None) -> dict[str, list[int]]:
        """CA ports' tables, read from the ports themselves (SMPs), not from the SM's view. A full read
        walks the fabric for LIDs (and notes the ports an SM runs behind); a read of some ports reuses
        the last walk's LIDs."""
        try:
            if guids is None or not set(guids) <= set(self._ports):
                self._ports = {p.guid: p for p in self.diags.ca_ports()}
            wanted = self._ports.values() if guids is None else [self._ports[g] for g in guids if g in self._ports]
            tables, sms = self.diags.read(list(wanted))
        except DiagError as exc:
            raise RealizerError(f"reading the fabric: {exc}") from None
        if guids is None:
            self._sm_ports = sms
        return tables

    def self_guids(self) -> set[str]:
        """This host's port, where its SM runs (SELF=full in the default partition)."""
        if self._own is None:
            try:
                self._own = {self.diags.local_guid()}
            except DiagError:
                return set()
        return self._own

    def foreign_sms(self) -> list[str]:
        """Every other SM: the SA's SMInfoRecords and the ports whose PortInfo says IsSM."""
        try:
            known = set(self.diags.sm_guids()) | getattr(self, "_sm_ports", set())
        except DiagError as exc:
            raise RealizerError(f"listing the fabric's SMs: {exc}") from None
        return sorted(known - self.self_guids())

    def problems(self) -> list[str]:
        """The master SM is another one than this host's (it programs the tables, not this agent's SM)."""
        try:
            master = self.diags.master_sm()
        except DiagError as exc:
            return [f"no master SM answers: {exc}"]
        own = self.self_guids()
        return [] if master in own else [f"the fabric's master SM is {master}, not this host's ({', '.join(own)})"]


def expected_tables(desired: dict, self_guids: AbstractSet[str] = frozenset()) -> dict[str, set[int]]:
    """Each named port's table as desired: its tenant key full, the default key full or limited."""
    full_default = set(desired[fw.SHARED][fw.FULL]) | set(self_guids)
    expected: dict[str, set[int]] = {}
    for part in desired[fw.PARTITIONS]:
        number = int(part[fw.PKEY], 16)
        for port in part[fw.FULL]:
            expected.setdefault(port, set()).add(number | fw.FULL_BIT)
    for port in full_default:
        expected.setdefault(port, set())
    for port, entries in expected.items():
        entries.add(fw.DEFAULT_PKEY | fw.FULL_BIT if port in full_default else fw.DEFAULT_PKEY)
    return expected


def changed_ports(before: dict | None, after: dict, self_guids: AbstractSet[str] = frozenset()) -> set[str]:
    """Ports whose desired table differs between two documents (what a change must reprogram)."""
    old = expected_tables(before, self_guids) if before else {}
    new = expected_tables(after, self_guids)
    default = {fw.DEFAULT_PKEY}
    return {port for port in set(old) | set(new) if old.get(port, default) != new.get(port, default)}


def port_problems(
    desired: dict,
    tables: dict[str, list[int]],
    self_guids: AbstractSet[str] = frozenset(),
    only: set[str] | None = None,
) -> dict[str, str]:
    """Port GUID -> what is wrong with it (absent, or its table differs from `desired`); with `only`,
    just for those ports."""
    expected = expected_tables(desired, self_guids)
    if only is not None:
        expected = {port: entries for port, entries in expected.items() if port in only}
        tables = {port: table for port, table in tables.items() if port in only}
    problems = {port: f"port {port} is not on the fabric" for port in sorted(set(expected) - set(tables))}
    for port, table in sorted(tables.items()):
        want = expected.get(port, {fw.DEFAULT_PKEY})
        have = set(table)
        if have != want:
            extra = ", ".join(f"0x{e:04x}" for e in sorted(have - want)) or "none"
            missing = ", ".join(f"0x{e:04x}" for e in sorted(want - have)) or "none"
            problems[port] = f"port {port}: P_Key table has extra {extra}, lacks {missing}"
    return problems


def isolation_errors(
    desired: dict,
    tables: dict[str, list[int]],
    self_guids: AbstractSet[str] = frozenset(),
    only: set[str] | None = None,
) -> list[str]:
    """Where the fabric's tables differ from `desired` (empty when every port is as it should be)."""
    return list(port_problems(desired, tables, self_guids, only).values())
