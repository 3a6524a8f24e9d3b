"""Runs tests/agent/guest (real VRF) inside a QEMU TCG guest booting a pinned Debian kernel."""

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nodekit  # tests/agent is on the path (conftest.py)
import pytest

ROOT = Path(__file__).resolve().parents[2]
SPEC = importlib.util.spec_from_file_location("vrf_guest", ROOT / "scripts/vrf-guest/guest.py")
guest = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(guest)
# Inside the checkout: the guest sees the host's /tmp as its own empty tmpfs, but the checkout as it is.
PREBUILT = ROOT / ".data" / "guest-bin"

# No plugin but pytest's own: the guest suite uses none, and loading the installed ones (Django's, the
# fuzzers', the browser's) took the emulated CPU minutes.
SUITE = f"""cd {ROOT} && ENCLAVE_PREBUILT_BIN={PREBUILT} PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 {ROOT}/.venv/bin/python \\
  -m pytest -p no:cacheprovider --durations=40 -o addopts='' --color=no --confcutdir=tests/agent -q \\
  tests/agent/guest 2>&1"""


def prebuild() -> None:
    """The PAM launcher, the SPANK plugin and the MPI program, built here as the guest would build them
    (same files, compilers and flags), and the agent's bytecode: the guest's emulated CPU takes a minute
    for what takes a second here."""
    shutil.rmtree(PREBUILT, ignore_errors=True)
    PREBUILT.mkdir(parents=True)
    for src in ("agent/pam", "agent/slurm"):
        subprocess.run(["make", "-s", "-C", str(ROOT / src), f"OUT={PREBUILT}"], check=True, capture_output=True)
    ring = [*nodekit.MPI_RING_BUILD, "-o", str(PREBUILT / "mpi_ring"), str(nodekit.RING)]
    subprocess.run(ring, check=True, capture_output=True)
    # The guest mounts the checkout read-only, so without these every agent start there would compile
    # the agent anew (where PYTHONDONTWRITEBYTECODE kept the host's runs from writing them).
    sources = [str(ROOT / "agent" / "enclave_agent"), str(ROOT / "tests" / "agent")]
    subprocess.run([sys.executable, "-m", "compileall", "-q", *sources], check=True, capture_output=True)


@pytest.mark.timeout(2700)
@pytest.mark.skipif(
    os.geteuid() != 0 or not shutil.which("qemu-system-x86_64"), reason="needs root and qemu-system-x86_64"
)
def test_the_vrf_suite_passes_inside_a_guest_with_a_vrf_kernel():
    prebuild()
    rc, log = guest.run(SUITE, timeout=2400)  # one boot for the whole VRF suite (TCG: slow)
    tail = log[-6000:]
    print(tail)  # the guest's own durations (shown with -s)
    assert rc == 0, tail
    assert " passed" in tail and " failed" not in tail and " skipped" not in tail
