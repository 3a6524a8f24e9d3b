"""The PAM entry on this machine: a real pam_exec session whose PAM environment is hostile.

No VRF here, so the session is refused (its tenant is not ready); what is shown is that no code
of the user's runs as root and the state directory comes from the root-owned config, not the
environment. tests/agent/guest/test_pam_session.py shows the session landing in its VRF.
"""

import json
import os
import shutil
import subprocess
import uuid
from pathlib import Path

import pamkit
import pytest
from topo import desired

pytestmark = pytest.mark.skipif(os.geteuid() != 0 or not pamkit.have_tools(),
                                reason="needs root, runuser, pam_exec, gcc")  # fmt: skip
A, B = 70001, 70002


@pytest.fixture
def kit():
    """A real state dir (B holds the test user's UID, not ready here) and a forged one (A)."""
    base = Path(f"/tmp/enclpam-{uuid.uuid4().hex[:8]}")
    state = base / "state"
    state.mkdir(parents=True)
    base.chmod(0o755)
    real = desired("n1", 1, [A, B], uids={B: [pamkit.UID]})
    (state / "desired.json").write_text(json.dumps(real))
    (state / "status.json").write_text(json.dumps({"tenants": {str(B): {"status": "not_ready", "errors": ["no VRF"]}}}))
    forged = desired("n1", 1, [A], uids={A: [pamkit.UID]})
    try:
        kit = pamkit.make_kit(base, state, forged)
        kit.launcher = pamkit.build_launcher(base / "bin")
        yield kit
    finally:
        shutil.rmtree(base, ignore_errors=True)


def test_the_launcher_passes_on_only_pam_user_pam_type_and_a_fixed_path(kit):
    env = {
        "LD_PRELOAD": f"{kit.base}/home/evil.so",
        "PYTHONPATH": "/x",
        "PAM_USER": "alice",
        "PAM_TYPE": "open_session",
        "PAM_RHOST": "10.0.0.9",
        "ENCLAVE_AGENT_DIR": "/x",
        "PATH": "/x",
    }
    out = subprocess.run([str(kit.launcher), "/usr/bin/env"], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == ["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
                                       "PAM_USER=alice", "PAM_TYPE=open_session"]  # fmt: skip
    assert kit.root_runs() == []
    subprocess.run(["/usr/bin/env"], env=env, capture_output=True, check=True)  # negative control
    assert kit.root_runs() == ["preload uid=0"]


def test_the_launcher_passes_on_the_last_pam_user_and_pam_type_which_pam_exec_appends(kit):
    hostile = ["PAM_USER=nobody", "PAM_TYPE=close_session", f"LD_PRELOAD={kit.base}/home/evil.so"]
    out = pamkit.exec_raw([str(kit.launcher), "/usr/bin/env"], [*hostile, "PAM_USER=alice", "PAM_TYPE=open_session"])
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[1:] == ["PAM_USER=alice", "PAM_TYPE=open_session"]


def test_the_agent_called_by_pam_exec_directly_also_takes_the_last_pam_user_and_pam_type(kit):
    pam_exec_env = ["PATH=/usr/bin:/bin", f"PAM_USER={pamkit.OTHER_TENANTS_USER}", "PAM_TYPE=close_session",
                    f"PAM_USER={pamkit.USER}", "PAM_TYPE=open_session"]  # fmt: skip
    passwd = ["unshare", "-m", "sh", "-c", f'mount --bind {kit.passwd} /etc/passwd && exec "$0" "$@"']
    agent = [pamkit.AGENT, "--config", str(kit.config), "enter", "--pam"]
    out = pamkit.exec_raw(agent, pam_exec_env, prefix=passwd)
    assert out.returncode == 1  # the first pair would be a close_session of nobody: a silent 0
    assert f"session refused: tenant {B} network is not ready" in out.stderr  # enclpam's tenant, not nobody's


@pytest.mark.parametrize(("argv", "env"), [(["env"], {}), ([], {}), (["/usr/bin/env"], {"PAM_USER": "a b"}),
                                           (["/usr/bin/env"], {"PAM_USER": "-rf"}),
                                           (["/usr/bin/env"], {"PAM_TYPE": "sudo"})])  # fmt: skip
def test_the_launcher_refuses_relative_commands_and_odd_pam_values(kit, argv, env):
    out = subprocess.run([str(kit.launcher), *argv], env=env, capture_output=True, text=True)
    assert out.returncode in (1, 2) and out.stdout == ""


def test_a_pam_session_through_the_launcher_runs_none_of_the_users_code_as_root(kit):
    out = pamkit.session(kit, kit.service(kit.launcher), f"{pamkit.IP} vrf identify")
    log = (kit.base / "pam_exec.log").read_text()
    assert out.returncode != 0  # refused: tenant B is not ready on a kernel without VRF
    assert f"session refused: tenant {B} network is not ready" in log  # the config's state dir, not the forged one
    assert kit.root_runs() == []


def test_the_same_session_without_the_launcher_runs_user_code_as_root_so_the_test_can_fail(kit):
    out = pamkit.session(kit, kit.service(None), f"{pamkit.IP} vrf identify")
    log = (kit.base / "pam_exec.log").read_text()
    assert out.returncode != 0
    assert "preload uid=0" in kit.root_runs() and "python uid=0" in kit.root_runs()
    assert "the PAM environment sets LD_PRELOAD, PYTHONPATH" in log  # and the agent refuses the session


def test_the_state_directory_comes_only_from_a_root_owned_config(kit, tmp_path):
    from enclave_agent import config

    assert config.state_dir(kit.config) == kit.base / "state"
    assert config.state_dir(Path("/nonexistent/agent.conf")) == config.DEFAULT_STATE_DIR
    kit.config.chmod(0o666)
    with pytest.raises(config.ConfigError):
        config.state_dir(kit.config)
    kit.config.chmod(0o644)
    os.chown(kit.config, pamkit.UID, 0)
    with pytest.raises(config.ConfigError):
        config.state_dir(kit.config)
    os.chown(kit.config, 0, 0)
    env = {"ENCLAVE_AGENT_DIR": str(kit.base / "home/fake"), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([pamkit.AGENT, "--config", str(kit.config), "enter", "--uid", str(pamkit.UID), "--", "true"],
                         env=env, capture_output=True, text=True)  # fmt: skip
    assert out.returncode == 1 and f"tenant {B} network is not ready" in out.stderr


def test_a_state_directory_others_can_write_is_not_trusted_for_sessions(kit):
    (kit.base / "state").chmod(0o777)
    out = subprocess.run([pamkit.AGENT, "--state-dir", str(kit.base / "state"), "enter", "--uid", str(pamkit.UID),
                          "--", "true"], capture_output=True, text=True)  # fmt: skip
    assert out.returncode == 1 and "must be owned by root and writable by root only" in out.stderr
