"""Put a login session or job step into its tenant's VRF; refuse (fail closed) otherwise."""

from __future__ import annotations

import json
import os
import pwd
import subprocess
from pathlib import Path

from . import kernel
from .plan import tenant_links
from .state import DesiredState, StateError, TenantStatus, loads


class SessionRefused(RuntimeError):
    """The session must not start: its tenant network is absent or not ready."""


def _load(state_dir: Path) -> tuple[DesiredState, dict]:
    try:
        desired = loads((state_dir / "desired.json").read_text())
        status = json.loads((state_dir / "status.json").read_text())
    except (OSError, StateError, ValueError) as exc:
        raise SessionRefused(f"no usable desired state on this node ({exc})") from exc
    return desired, status


def vrf_for_uid(uid: int, state_dir: Path) -> str:
    """The VRF a UID's sessions must run in, checked against the live kernel."""
    desired, status = _load(state_dir)
    tenant = desired.tenant_for_uid(uid)
    if tenant is None:
        raise SessionRefused(f"uid {uid} is not a member of any tenant on this node")
    entry = status.get("tenants", {}).get(str(tenant.id), {})
    if entry.get("status") != TenantStatus.READY:
        why = "; ".join(entry.get("errors", [])) or "not realised yet"
        raise SessionRefused(f"tenant {tenant.id} network is not ready: {why}")
    live = kernel.read(full=False).links
    for plan in tenant_links(tenant, desired.node.interfaces):
        have = live.get(plan.name)
        if have is None or have.digest != plan.digest or not have.up:
            raise SessionRefused(f"tenant {tenant.id} network is incomplete ({plan.name})")
    return tenant.vrf


def exec_in_vrf(uid: int, argv: list[str], state_dir: Path) -> None:
    """Replace this process with argv running inside the tenant VRF (`ip vrf exec`)."""
    vrf = vrf_for_uid(uid, state_dir)
    # exec, not spawn: the session must become the process inside the VRF.
    os.execvp("ip", ["ip", "vrf", "exec", vrf, *argv])  # noqa: S606


def _cgroup2_mounts() -> list[tuple[str, str]]:
    """(root inside the hierarchy, mount point) of every cgroup2 mount we can see."""
    mounts = []
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        left, _, right = line.partition(" - ")
        if right.startswith("cgroup2 "):
            fields = left.split()
            mounts.append((fields[3], fields[4]))
    return mounts


def move_pid(pid: int, uid: int, state_dir: Path) -> str:
    """Move an existing process (sshd session, Slurm task) into the UID's tenant VRF."""
    vrf = vrf_for_uid(uid, state_dir)
    # Let iproute2 create the VRF cgroup with its socket BPF program and tell us where it is
    # (the path depends on iproute2's version and on the named netns we run in).
    probe = subprocess.run(["ip", "vrf", "exec", vrf, "cat", "/proc/self/cgroup"],
                           capture_output=True, text=True, check=False)
    path = next((x[3:] for x in probe.stdout.splitlines() if x.startswith("0::")), "")
    if probe.returncode != 0 or f"/vrf/{vrf}" not in path:
        raise SessionRefused(f"ip vrf exec {vrf} failed: {probe.stderr.strip()}")
    for root, mnt in _cgroup2_mounts():
        if path.startswith(root):
            procs = Path(mnt, path[len(root):].lstrip("/"), "cgroup.procs")
            if procs.exists():
                procs.write_text(str(pid))
                return vrf
    raise SessionRefused(f"could not find the cgroup {path} of {vrf}")


def pam_session(state_dir: Path) -> None:
    """pam_exec hook (session): move the calling session process (our parent) into the VRF."""
    user = os.environ.get("PAM_USER")
    if not user:
        raise SessionRefused("PAM_USER not set; not called from pam_exec?")
    if os.environ.get("PAM_TYPE", "open_session") != "open_session":
        return
    move_pid(os.getppid(), pwd.getpwnam(user).pw_uid, state_dir)
