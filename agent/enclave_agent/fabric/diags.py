"""Reading the fabric with infiniband-diags: ports and LIDs, each port's P_Key table, the SMs on it.

Every value parsed from a tool's output is grammar-checked before use; the tools run with a fixed
argument list (no shell) and a bounded time. `env` adds variables to the tools' environment: the
simulated fabric in tests preloads libumad2sim.so there, a real host needs none.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from .. import fabric_wire

TOOL_TIMEOUT = 60.0
SMP = Path(__file__).with_name("smp.py")  # stdlib only, run by path: no import path needed
# `ibnetdiscover -p`: "CA     3  1 0x0002c90000002001 4x SDR - SW ..." (type, lid, port, port GUID).
PORT_LINE = re.compile(r"(CA|SW)\s+(\d+)\s+(\d+)\s+(0x[0-9a-fA-F]{1,16})\s")
PKEY_BLOCK = re.compile(r"\s*\d+:((?:\s+0x[0-9a-f]{4})+)\s*")
SMINFO = re.compile(r"sminfo: sm lid (\d+) sm guid (0x[0-9a-fA-F]{1,16}),")


class DiagError(RuntimeError):
    """A diagnostic tool failed or printed something this module does not recognise."""


@dataclass(frozen=True)
class CaPort:
    """A channel adapter port seen on the fabric."""

    guid: str
    lid: int
    port: int


def canonical_guid(text: str) -> str:
    """A GUID as the tools print it (no leading zeros) in the wire's canonical form."""
    return fabric_wire.guid(f"0x{int(text, 16):016x}")


class Diags:
    """Runs infiniband-diags tools against one local HCA port (or the tools' default)."""

    def __init__(self, env: dict | None = None, ca: str | None = None, port: int | None = None):
        self.env = {**os.environ, **(env or {})}
        self.ca, self.port = ca, port
        self.local = [*(["-C", ca] if ca else []), *(["-P", str(port)] if port else [])]

    def run(self, *argv: str) -> str:
        """One tool run; its stdout, or DiagError with the tail of stderr."""
        try:
            done = subprocess.run(  # noqa: S603 - fixed argv, no shell
                [argv[0], *self.local, *argv[1:]], env=self.env, capture_output=True, text=True, timeout=TOOL_TIMEOUT
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise DiagError(f"{argv[0]}: {exc}") from None
        if done.returncode != 0:
            raise DiagError(f"{' '.join(argv)}: exit {done.returncode}: {done.stderr.strip()[-300:]}")
        return done.stdout

    def ca_ports(self) -> list[CaPort]:
        """Every channel adapter port the fabric has, from one `ibnetdiscover -p` walk."""
        found: dict[str, CaPort] = {}
        for line in self.run("ibnetdiscover", "-p").splitlines():
            match = PORT_LINE.match(line)
            if match and match.group(1) == "CA":
                guid = canonical_guid(match.group(4))
                found[guid] = CaPort(guid, int(match.group(2)), int(match.group(3)))
        return sorted(found.values(), key=lambda p: p.lid)

    def pkeys(self, lid: int, port: int) -> list[int]:
        """A port's P_Key table, its non-zero entries in table order."""
        entries: list[int] = []
        for line in self.run("smpquery", "pkeys", str(int(lid)), str(int(port))).splitlines():
            match = PKEY_BLOCK.fullmatch(line)
            if match:
                entries += [int(word, 16) for word in match.group(1).split()]
        if not entries:
            raise DiagError(f"smpquery pkeys {lid} {port}: no table in the answer")
        return [entry for entry in entries if entry & 0x7FFF]

    def read(self, ports: list[CaPort]) -> tuple[dict[str, list[int]], set[str]]:
        """P_Key tables of `ports` by port GUID, and the ports that say an SM runs behind them: from one
        process (smp.py) rather than one per port."""
        if not ports:
            return {}, set()
        argv = [sys.executable, "-I", str(SMP), *self.local]  # -I: no user site, no PYTHON* variables
        text = "".join(f"{p.lid} {p.port}\n" for p in ports)
        try:
            done = subprocess.run(  # noqa: S603 - fixed argv, no shell
                argv, input=text, env=self.env, capture_output=True, text=True, timeout=TOOL_TIMEOUT * 10
            )
            answer = json.loads(done.stdout) if done.returncode == 0 else None
        except (OSError, ValueError, subprocess.TimeoutExpired) as exc:
            raise DiagError(f"reading P_Key tables: {exc}") from None
        if not isinstance(answer, dict):
            raise DiagError(f"reading P_Key tables: exit {done.returncode}: {done.stderr.strip()[-300:]}")
        tables, sms, unread = {}, set(), []
        for p in ports:
            item = answer.get(f"{p.lid}:{p.port}")
            table = item.get("pkeys") if isinstance(item, dict) else None
            if not isinstance(table, list) or not all(isinstance(e, int) and 0 <= e <= 0xFFFF for e in table):
                unread.append(p.guid)
                continue
            tables[p.guid] = [entry for entry in table if entry & 0x7FFF]
            if isinstance(item, dict) and item.get("sm") is True:
                sms.add(p.guid)
        if unread:
            raise DiagError(f"{len(unread)} ports did not answer for their P_Key tables (first {unread[0]})")
        return tables, sms

    def tables(self, ports: list[CaPort]) -> dict[str, list[int]]:
        """P_Key tables of `ports` by port GUID."""
        return self.read(ports)[0]

    def local_guid(self) -> str:
        """This host's port GUID (the configured CA and port, else the first): where its SM runs."""
        argv = ["ibstat", "-p", *([self.ca] if self.ca else []), *([str(self.port)] if self.ca and self.port else [])]
        try:
            done = subprocess.run(argv, env=self.env, capture_output=True, text=True, timeout=TOOL_TIMEOUT)  # noqa: S603
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise DiagError(f"ibstat: {exc}") from None
        guids = re.findall(r"^0x[0-9a-fA-F]{1,16}$", done.stdout, re.MULTILINE)
        if done.returncode != 0 or not guids:
            raise DiagError(f"ibstat -p: no local port GUID ({done.stderr.strip()[-200:]})")
        return canonical_guid(guids[0])

    def master_sm(self) -> str:
        """The master SM's port GUID, from `sminfo`."""
        match = SMINFO.search(self.run("sminfo"))
        if not match:
            raise DiagError("sminfo: no master SM in the answer")
        return canonical_guid(match.group(2))

    def sm_guids(self) -> list[str]:
        """Port GUIDs of every SM the SA knows on the fabric (its SMInfoRecords)."""
        out = self.run("saquery", "SMInfoRecord")
        return sorted({canonical_guid(m) for m in re.findall(r"GUID\.+(0x[0-9a-fA-F]{1,16})", out)})
