"""Put a login session or job step into its tenant's VRF; refuse (fail closed) otherwise."""

from __future__ import annotations

import json
import os
import pwd
import re
import subprocess
from pathlib import Path

from . import kernel
from .config import ConfigError, trusted
from .plan import tenant_links
from .state import DesiredState, StateError, Tenant, TenantStatus, loads

SAFE_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
# Variables through which whoever set them runs code in a loader or an interpreter.
UNSAFE_ENV = re.compile(r"LD_.*|PYTHON.*|GCONV_PATH|GLIBC_TUNABLES|LOCPATH|NLSPATH")


class SessionRefused(RuntimeError):
    """The session must not start: its tenant network is absent or not ready."""


def _load(state_dir: Path) -> tuple[DesiredState, dict]:
    try:
        for path in (state_dir, state_dir / "desired.json", state_dir / "status.json"):
            trusted(path)  # only root may decide which VRF a session enters
        desired = loads((state_dir / "desired.json").read_text())
        status = json.loads((state_dir / "status.json").read_text())
    except (OSError, StateError, ValueError, ConfigError) as exc:
        raise SessionRefused(f"no usable desired state on this node ({exc})") from exc
    return desired, status


def ready_tenant(uid: int, state_dir: Path) -> Tenant:
    """The tenant whose VRF a UID's sessions must run in, its network checked against the live kernel."""
    desired, status = _load(state_dir)
    tenant = desired.tenant_for_uid(uid)
    if tenant is None:
        raise SessionRefused(f"uid {uid} is not a member of any tenant on this node")
    entry = status.get("tenants", {}).get(str(tenant.id), {})
    if entry.get("status") != TenantStatus.READY:
        why = "; ".join(entry.get("errors", [])) or "not realised yet"
        raise SessionRefused(f"tenant {tenant.id} network is not ready: {why}")
    live = kernel.links()  # only the links: a login or task must not pay for nft and rule reads
    for plan in tenant_links(tenant, desired.node.interfaces):
        have = live.get(plan.name)
        if have is None or have.digest != plan.digest or not have.up:
            raise SessionRefused(f"tenant {tenant.id} network is incomplete ({plan.name})")
    return tenant


def exec_environment(raw: bytes | None = None) -> dict[str, str]:
    """The environment we were started with, the LAST of duplicate names winning.

    os.environ keeps the first, but pam_exec appends its own PAM_USER and PAM_TYPE after the PAM
    environment, which users fill (pam_env user_readenv): the first would be theirs."""
    if raw is None:
        try:
            raw = Path("/proc/self/environ").read_bytes()
        except OSError:
            return dict(os.environ)
    pairs = (entry.split(b"=", 1) for entry in raw.split(b"\0") if b"=" in entry)
    return {os.fsdecode(name): os.fsdecode(value) for name, value in pairs}


def tenant_pkey(uid: int, state_dir: Path) -> str | None:
    """The partition key ("0x0012") of the tenant a UID belongs to on this node, None without one."""
    desired, _ = _load(state_dir)
    tenant = desired.tenant_for_uid(uid)
    if tenant is None:
        raise SessionRefused(f"uid {uid} is not a member of any tenant on this node")
    return tenant.pkey


def scrub_environment() -> dict[str, str]:
    """Replace our environment with a fixed one; return the one we were given."""
    given = exec_environment()
    os.environ.clear()
    os.environ["PATH"] = SAFE_PATH
    return given


def drop_privileges(account: pwd.struct_passwd) -> None:
    """Become the account for good: supplementary groups, gid, uid; then prove root is gone."""
    uid, gid = account.pw_uid, account.pw_gid
    groups = os.getgrouplist(account.pw_name, gid)
    os.setgroups(groups)
    os.setresgid(gid, gid, gid)
    os.setresuid(uid, uid, uid)
    if os.getresuid() != (uid, uid, uid) or os.getresgid() != (gid, gid, gid) \
            or set(os.getgroups()) - set(groups):  # fmt: skip
        raise SessionRefused(f"could not drop privileges to uid {uid}")
    try:
        os.setuid(0)
    except PermissionError:
        return
    raise SessionRefused(f"uid {uid} could regain root")


def exec_in_vrf(uid: int, argv: list[str], state_dir: Path, env: dict[str, str]) -> None:
    """Replace this process with argv, running as uid inside uid's tenant VRF."""
    if os.geteuid() != 0 and uid != os.getuid():
        raise SessionRefused("only root may start a session for another user")
    move_pid(os.getpid(), uid, state_dir)  # checks the tenant network first
    try:
        account = pwd.getpwuid(uid)
    except KeyError:
        raise SessionRefused(f"uid {uid} has no account on this node") from None
    drop_privileges(account)
    env = {**env, "HOME": account.pw_dir, "USER": account.pw_name, "LOGNAME": account.pw_name}
    try:
        os.execvpe(argv[0], argv, env)  # noqa: S606 - the command the caller (root) asked for
    except OSError as exc:
        raise SessionRefused(f"{argv[0]}: {exc.strerror}") from None


def _cgroup2_mounts() -> list[tuple[str, str]]:
    """(root inside the hierarchy, mount point) of every cgroup2 mount we can see."""
    mounts = []
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        left, _, right = line.partition(" - ")
        if right.startswith("cgroup2 "):
            fields = left.split()
            mounts.append((fields[3], fields[4]))
    return mounts


def move_pid(pid: int, uid: int, state_dir: Path) -> Tenant:
    """Move an existing process (sshd session, Slurm task) into the UID's tenant VRF; return the tenant."""
    tenant = ready_tenant(uid, state_dir)
    vrf = tenant.vrf
    # Let iproute2 create the VRF cgroup with its socket BPF program and tell us where it is
    # (the path depends on iproute2's version and on the named netns we run in).
    probe = subprocess.run(
        ["ip", "vrf", "exec", vrf, "cat", "/proc/self/cgroup"],
        capture_output=True,
        text=True,
        check=False,
        env={"PATH": SAFE_PATH},
    )
    path = next((x[3:] for x in probe.stdout.splitlines() if x.startswith("0::")), "")
    if probe.returncode != 0 or f"/vrf/{vrf}" not in path:
        raise SessionRefused(f"ip vrf exec {vrf} failed: {probe.stderr.strip()}")
    for root, mnt in _cgroup2_mounts():
        if path.startswith(root):
            procs = Path(mnt, path[len(root) :].lstrip("/"), "cgroup.procs")
            if procs.exists():
                procs.write_text(str(pid))
                return tenant
    raise SessionRefused(f"could not find the cgroup {path} of {vrf}")


def pam_session(state_dir: Path, environ: dict[str, str]) -> None:
    """pam_exec hook (session): move the calling session process (our parent) into the VRF.

    pam_exec hands us the PAM environment, which users can fill (pam_env user_readenv). Through
    enclave-pam-exec we only ever see PATH, PAM_USER and PAM_TYPE; anything that could already
    have changed this interpreter means the PAM line bypasses it, and the session is refused.
    """
    unsafe = sorted(k for k in environ if UNSAFE_ENV.fullmatch(k))
    if unsafe:
        raise SessionRefused(
            f"the PAM environment sets {', '.join(unsafe)}: call `enter --pam` "
            "through enclave-pam-exec (see the agent README)"
        )
    user = environ.get("PAM_USER")
    if not user:
        raise SessionRefused("PAM_USER not set; not called from pam_exec?")
    if environ.get("PAM_TYPE", "open_session") != "open_session":
        return
    try:
        uid = pwd.getpwnam(user).pw_uid
    except KeyError:
        raise SessionRefused(f"user {user!r} has no account on this node") from None
    move_pid(os.getppid(), uid, state_dir)
