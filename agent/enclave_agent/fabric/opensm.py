"""OpenSM as the fabric's subnet manager: partitions.conf rendered from desired state, SIGHUP, readback.

OpenSM re-reads partitions.conf and runs a heavy sweep on SIGHUP. A file it cannot parse makes it
fall back to its built-in default, where every port is a full member of 0x7fff: the rendering
below therefore only ever emits names derived from keys and GUIDs checked by fabric_wire, and
the readback (realizer.isolation_errors) catches a fallback as every tenant port in error.
"""

from __future__ import annotations

import os
import re
import signal
from collections.abc import Callable
from pathlib import Path

from .. import fabric_wire as fw
from .diags import Diags
from .realizer import Applied, ReadsFabric, RealizerError, SubnetManager

HEADER = "# Written by enclave-fabric-agent from the portal's desired state; edits are overwritten.\n"
VERSION = re.compile(r"OpenSM (\d+(?:\.\d+){1,3})")
DEFAULT_SM_KEY = 1  # OpenSM's shipped sm_key: known to everyone, so not a secret


def render(desired: dict) -> str:
    """partitions.conf for a checked desired document: the default partition, then one per tenant key."""
    shared = "".join(f",\n  {port}=full" for port in desired[fw.SHARED][fw.FULL])
    # OpenSM keeps a port's last membership in a partition: limited for every CA first, then the fulls.
    lines = [HEADER, f"Default=0x7fff, ipoib : ALL_CAS=limited, ALL_SWITCHES=full, SELF=full{shared} ;\n"]
    for part in sorted(desired[fw.PARTITIONS], key=lambda p: p[fw.PKEY]):
        number = fw.pkey(part[fw.PKEY])
        flags = f"{fw.pkey_text(number)}{', ipoib' if part[fw.IPOIB] else ''}, mtu={int(part[fw.MTU])}"
        members = ",".join(f"\n  {fw.guid(port)}=full" for port in part[fw.FULL])
        # A partition without members still needs the colon: "name=key, flags ;" fails to parse.
        lines.append(f"{fw.partition_name(number)}={flags} :{members} ;\n")
    return "".join(lines)


def write_durable(path: Path, text: str) -> None:
    """Replace path's content atomically and durably (temp file, fsync, rename, fsync the directory)."""
    tmp = path.with_name(f".{path.name}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        os.write(fd, text.encode())
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    dirfd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dirfd)
    finally:
        os.close(dirfd)


def read_options(path: Path) -> dict[str, str]:
    """OpenSM's options file as key -> value (comments and blank lines skipped)."""
    options = {}
    for line in path.read_text(errors="replace").splitlines():
        words = line.split(None, 1)
        if len(words) == 2 and not words[0].startswith("#"):
            options[words[0]] = words[1].strip()
    return options


def _number(text: str | None) -> int:
    try:
        return int(text or "0", 0)
    except ValueError:
        return 0


class OpenSM(ReadsFabric, SubnetManager):
    """OpenSM on this host: its partitions.conf, its options file, its process, the fabric through diags."""

    kind = "opensm"

    def __init__(
        self,
        partitions: Path,
        options: Path,
        state_dir: Path,
        pidfile: Path | None = None,
        diags: Diags | None = None,
        restart: Callable[[], object] | None = None,
    ) -> None:
        self.partitions, self.options, self.pidfile = Path(partitions), Path(options), pidfile
        self.restart = restart  # a callable restarting OpenSM (`restart_command`), or None: report only
        self.written = Path(state_dir) / "partitions.written"  # what this agent last wrote
        self.diags: Diags = diags or Diags()
        self._ports: dict = {}  # port GUID -> CaPort, from the last walk of the fabric
        self._sm_ports: set = set()

    def apply(self, desired: dict) -> Applied:
        """Write partitions.conf when it differs from the rendering and make OpenSM re-read it."""
        text = render(desired)
        try:
            current = self.partitions.read_text(errors="replace")
        except FileNotFoundError:
            current = None
        if current == text:
            return Applied()
        notices = []
        last = self.written.read_text() if self.written.exists() else None
        if current is not None and last is not None and current != last:
            notices.append(f"drift: {self.partitions} was changed outside Enclave; rewritten and re-applied")
        try:
            write_durable(self.partitions, text)
            write_durable(self.written, text)
        except OSError as exc:
            raise RealizerError(f"cannot write {self.partitions}: {exc}") from None
        self.reload()
        return Applied(True, notices)

    def pid(self) -> int:
        """OpenSM's process: the pidfile's, or the only process named opensm; never another program."""
        if self.pidfile is not None:
            try:
                candidates = [int(Path(self.pidfile).read_text().strip())]
            except (OSError, ValueError) as exc:
                raise RealizerError(f"OpenSM pidfile {self.pidfile}: {exc}") from None
        else:
            candidates = [int(p) for p in os.listdir("/proc") if p.isdigit()]
        found = [pid for pid in candidates if _comm(pid) == "opensm"]
        if len(found) != 1:
            raise RealizerError(f"expected one running OpenSM, found {len(found)}")
        return found[0]

    def reload(self) -> None:
        """SIGHUP: OpenSM re-reads partitions.conf and runs a heavy sweep."""
        try:
            os.kill(self.pid(), signal.SIGHUP)
        except ProcessLookupError:
            raise RealizerError("OpenSM exited before it could be told to re-read partitions.conf") from None

    def reprogram(self) -> bool:
        """Restart OpenSM: a heavy sweep trusts the tables it last wrote, a new master reads and writes
        them all. Only where the site configured a restart command."""
        if self.restart is None:
            return False
        self.restart()
        return True

    def hardening(self) -> dict:
        """M_Key, its protection level and SM_Key from the options file; SMs other than this one."""
        try:
            options = read_options(self.options)
        except OSError as exc:
            raise RealizerError(f"cannot read {self.options}: {exc}") from None
        foreign = self.foreign_sms()
        return {
            "kind": self.kind,
            "version": self._version(options.get("log_file")),
            "m_key": _number(options.get("m_key")) != 0,
            "m_key_protect": min(max(_number(options.get("m_key_protection_level")), 0), 3),
            "sm_key": _number(options.get("sm_key")) not in (0, DEFAULT_SM_KEY),
            "foreign_sms": foreign,
        }

    def _version(self, log_file: str | None) -> str:
        """OpenSM's version from the head of its log (running `opensm --version` could start an SM)."""
        try:
            with open(log_file or "/var/log/opensm.log", errors="replace") as fh:
                match = VERSION.search(fh.read(4096))
        except OSError:
            return "unknown"
        return match.group(1) if match else "unknown"


def _comm(pid: int) -> str | None:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return None
