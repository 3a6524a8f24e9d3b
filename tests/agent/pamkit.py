"""A real PAM session for tests: runuser through a private /etc/pam.d/runuser with pam_env + pam_exec.

The test user's ~/.pam_environment sets what an attacker would (pam_env user_readenv=1):
LD_PRELOAD of a library and PYTHONPATH with a sitecustomize.py that both log "uid=N" to a
marker file when they run, and ENCLAVE_AGENT_DIR naming a forged state directory that would
put the user into another tenant, and PAM_USER (another tenant's user) and PAM_TYPE (close_session),
which pam_exec also sets, after the PAM environment. Everything happens in a private mount namespace.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
AGENT = str(Path(sys.executable).with_name("enclave-agent"))
IP = shutil.which("ip", path="/usr/sbin:/sbin:/usr/bin:/bin")
USER, UID = "enclpam", 65533
OTHER_TENANTS_USER = "nobody"  # UID 65534: tenant A's member on the guest nodes (nodekit.UIDS)
# The QEMU guest's emulated CPU compiles slowly, so tests/agent/test_vrf_guest.py builds the C programs
# on the host, from the same files with the same compilers, into this directory (prebuilt()).
PREBUILT = os.environ.get("ENCLAVE_PREBUILT_BIN", "")

EVIL_C = r"""
#include <stdio.h>
#include <unistd.h>
__attribute__((constructor)) static void mark(void)
{
    FILE *f = fopen("%(log)s", "a");
    if (f) { fprintf(f, "preload uid=%%d\n", (int)geteuid()); fclose(f); }
}
"""
SITECUSTOMIZE = """import os
with open({log!r}, "a") as fh:
    fh.write(f"python uid={{os.geteuid()}}\\n")
"""


def build_launcher(out: Path) -> Path:
    """Compile agent/pam/enclave_pam_exec.c (static) into out."""
    out.mkdir(parents=True, exist_ok=True)
    if not prebuilt("enclave-pam-exec", out):
        subprocess.run(["make", "-s", "-C", str(ROOT / "agent/pam"), f"OUT={out}"], check=True, capture_output=True)
    return out / "enclave-pam-exec"


def prebuilt(name: str, out: Path) -> bool:
    """Copy the host-built program `name` into out, when the suite was handed one (PREBUILT)."""
    src = Path(PREBUILT, name)
    if not PREBUILT or not src.is_file():
        return False
    shutil.copy2(src, out / name)
    return True


@dataclass
class Kit:
    """Paths of one PAM test setup."""

    base: Path
    markers: Path
    config: Path
    passwd: Path

    def service(self, launcher: Path | None) -> Path:
        """A runuser PAM service whose session runs the agent, through the launcher or not."""
        cmd = [str(launcher)] if launcher else []
        cmd += [AGENT, "--config", str(self.config), "enter", "--pam"]
        path = self.base / ("pam-launcher" if launcher else "pam-direct")
        path.write_text(
            "auth sufficient pam_rootok.so\naccount required pam_permit.so\n"
            "session required pam_env.so readenv=0 user_readenv=1\n"
            f"session required pam_exec.so quiet type=open_session log={self.base}/pam_exec.log {' '.join(cmd)}\n"
        )
        return path

    def root_runs(self) -> list[str]:
        """Marker lines written by code that ran as root ('' when none did)."""
        log = self.markers / "log"
        return [x for x in (log.read_text().splitlines() if log.exists() else []) if x.endswith("uid=0")]


def make_kit(base: Path, state_dir: Path, forged: dict | None = None) -> Kit:
    """Home, hostile ~/.pam_environment, passwd with the test user, a root-owned agent.conf."""
    base.mkdir(parents=True, exist_ok=True)
    home, markers, conf_dir = base / "home", base / "markers", base / "conf"
    for d in (home / "py", home / "fake", markers, conf_dir):
        d.mkdir(parents=True, exist_ok=True)
    markers.chmod(0o1777)
    log = markers / "log"
    (base / "evil.c").write_text(EVIL_C % {"log": log})
    subprocess.run(["gcc", "-shared", "-fPIC", "-o", str(home / "evil.so"), str(base / "evil.c")], check=True)
    (home / "py" / "sitecustomize.py").write_text(SITECUSTOMIZE.format(log=str(log)))
    fake_ip = home / "py" / "ip"  # found first if anything ran `ip` with the session's PATH
    fake_ip.write_text(f'#!/bin/sh\necho "ip uid=$(id -u)" >> {log}\nexit 1\n')
    fake_ip.chmod(0o755)
    if forged is not None:  # a state dir that would map the user to another tenant
        (home / "fake" / "desired.json").write_text(json.dumps(forged))
        status = {"tenants": {str(t["id"]): {"status": "ready", "errors": []} for t in forged["tenants"]}}
        (home / "fake" / "status.json").write_text(json.dumps(status))
    (home / ".pam_environment").write_text(
        f"LD_PRELOAD DEFAULT={home}/evil.so\nPYTHONPATH DEFAULT={home}/py\n"
        f"ENCLAVE_AGENT_DIR DEFAULT={home}/fake\nPATH DEFAULT={home}/py:/usr/bin:/bin\n"
        f"PAM_TYPE DEFAULT=close_session\nPAM_USER DEFAULT={OTHER_TENANTS_USER}\n"  # pam_exec appends its own
    )
    subprocess.run(["chown", "-R", f"{UID}:{UID}", str(home)], check=True)
    home.chmod(0o755)
    config = conf_dir / "agent.conf"
    config.write_text(f"[agent]\nstate_dir = {state_dir}\n")
    passwd = base / "passwd"
    lines = [x for x in Path("/etc/passwd").read_text().splitlines() if not x.startswith(f"{USER}:")]
    passwd.write_text("\n".join([*lines, f"{USER}:x:{UID}:{UID}::{home}:/bin/sh"]) + "\n")
    return Kit(base, markers, config, passwd)


def session(kit: Kit, service: Path, command: str, prefix: list[str] = ()) -> subprocess.CompletedProcess:
    """Open a real PAM session as the test user (runuser) and run command in it."""
    script = (
        f"mount --bind {service} /etc/pam.d/runuser && mount --bind {kit.passwd} /etc/passwd && "
        f"exec runuser -u {USER} -- sh -c {shlex.quote(command)}"
    )
    return subprocess.run(
        [*prefix, "unshare", "-m", "sh", "-c", script], capture_output=True, text=True, check=False, timeout=120
    )


def exec_raw(argv: list[str], environ: list[str], prefix: list[str] = ()) -> subprocess.CompletedProcess:
    """Run argv with exactly these environment entries, duplicates included (as pam_exec builds it)."""
    code = ("import ctypes, sys; n = sys.argv.index('--'); a, e = sys.argv[1:n], sys.argv[n + 1:]; "
            "arr = lambda x: (ctypes.c_char_p * (len(x) + 1))(*[v.encode() for v in x], None); "
            "ctypes.CDLL(None).execve(a[0].encode(), arr(a), arr(e)); sys.exit(127)")  # fmt: skip
    cmd = [*prefix, sys.executable, "-c", code, *argv, "--", *environ]
    return subprocess.run(cmd, env={}, capture_output=True, text=True, check=False, timeout=60)


def have_tools() -> bool:
    """runuser, pam_exec/pam_env, gcc and static libc are needed."""
    dirs = ("/lib/x86_64-linux-gnu/security", "/usr/lib/x86_64-linux-gnu/security")
    tools = ("runuser", "gcc", "unshare", "make")
    return all(shutil.which(t) for t in tools) and any(Path(d, "pam_exec.so").exists() for d in dirs)
