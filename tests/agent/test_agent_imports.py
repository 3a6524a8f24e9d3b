"""What each agent command loads: every login (PAM), Slurm task (SPANK) and one-off apply starts a new
Python, and under the VRF guest's emulated CPU each module costs a noticeable share of a second."""

import subprocess
from pathlib import Path

from topo import NOSITE

ROOT = Path(__file__).resolve().parents[2]

PORTAL_ONLY = ("http.client", "ssl", "enclave_agent.client", "enclave_agent.poll")


def _loaded(*modules: str) -> set[str]:
    """The modules a fresh `python -S` holds after importing modules from the checkout's agent package."""
    code = f"import sys; sys.path.insert(0, {str(ROOT / 'agent')!r}); " + "; ".join(f"import {m}" for m in modules)
    code += "; print('\\n'.join(sys.modules))"
    return set(subprocess.run([*NOSITE, "-c", code], capture_output=True, text=True, check=True).stdout.split())


def test_a_one_off_apply_loads_no_http_client_and_no_tls():
    loaded = _loaded("enclave_agent.cli", "enclave_agent.agent", "enclave_agent.state")
    assert "enclave_agent.agent" in loaded
    assert loaded.isdisjoint(PORTAL_ONLY), loaded & set(PORTAL_ONLY)


def test_a_login_or_task_entering_its_vrf_loads_neither_the_portal_client_nor_the_reconcile_pass():
    loaded = _loaded("enclave_agent.cli", "enclave_agent.session")
    assert loaded.isdisjoint({*PORTAL_ONLY, "enclave_agent.agent"})


def test_the_portal_loop_is_where_the_http_client_comes_in():
    assert {"http.client", "enclave_agent.client"} <= _loaded("enclave_agent.poll")
