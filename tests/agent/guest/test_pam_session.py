"""The PAM entry end to end on a VRF kernel: a real pam_exec session with a hostile PAM environment.

The user's ~/.pam_environment sets LD_PRELOAD, PYTHONPATH (a sitecustomize.py), PATH,
ENCLAVE_AGENT_DIR (a forged state dir that would put them into tenant A), and PAM_TYPE=close_session
and PAM_USER=nobody (tenant A's member), which pam_exec sets too, after them. Through the static
launcher the session still lands in the user's own VRF (B) and nothing of theirs runs as root;
the same line without the launcher runs their code as root (negative control).
"""

import shutil
import uuid
from pathlib import Path

import pamkit
import pytest
from topo import desired

A, B = 70001, 70002  # as the `net` fixture realises them; pamkit.UID (65533) belongs to B


@pytest.fixture(scope="module")
def kit(net):
    base = Path(f"/tmp/enclpam-{uuid.uuid4().hex[:8]}")
    base.mkdir(mode=0o755)
    forged = desired("n1", 1, [A], uids={A: [pamkit.UID]})
    try:
        kit = pamkit.make_kit(base, Path(f"/tmp/{net.prefix}-n1"), forged)
        kit.launcher = pamkit.build_launcher(base / "bin")
        yield kit
    finally:
        shutil.rmtree(base, ignore_errors=True)


def _session(net, kit, launcher):
    prefix = ["ip", "netns", "exec", net.ns("n1")]
    return pamkit.session(kit, kit.service(launcher), f"id -u; {pamkit.IP} vrf identify", prefix=prefix)


def test_a_hostile_pam_environment_still_lands_the_session_in_its_own_vrf(net, kit):
    out = _session(net, kit, kit.launcher)
    log = (kit.base / "pam_exec.log").read_text() if (kit.base / "pam_exec.log").exists() else ""
    assert out.returncode == 0, out.stderr + log
    assert out.stdout.split() == [str(pamkit.UID), f"vrf{B}"]  # the user, in B's VRF (the forged dir says A)
    assert kit.root_runs() == []  # neither the preload, nor sitecustomize, nor a fake `ip` ran as root


def test_without_the_launcher_the_users_code_runs_as_root_so_the_test_can_fail(net, kit):
    out = _session(net, kit, None)
    assert "preload uid=0" in kit.root_runs() and "python uid=0" in kit.root_runs()
    assert out.returncode != 0  # and the agent, seeing the poisoned environment, refuses the session
    assert "the PAM environment sets LD_PRELOAD, PYTHONPATH" in (kit.base / "pam_exec.log").read_text()
