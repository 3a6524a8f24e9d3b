"""Runs tests/agent/guest (real VRF) inside a QEMU TCG guest booting a pinned Debian kernel."""

import importlib.util
import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SPEC = importlib.util.spec_from_file_location("vrf_guest", ROOT / "scripts/vrf-guest/guest.py")
guest = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(guest)

SUITE = f"""cd {ROOT} && {ROOT}/.venv/bin/python -m pytest -p no:django -p no:cacheprovider --durations=5 \\
  -o addopts='' --color=no --confcutdir=tests/agent -q tests/agent/guest 2>&1"""


@pytest.mark.timeout(2700)
@pytest.mark.skipif(
    os.geteuid() != 0 or not shutil.which("qemu-system-x86_64"), reason="needs root and qemu-system-x86_64"
)
def test_the_vrf_suite_passes_inside_a_guest_with_a_vrf_kernel():
    rc, log = guest.run(SUITE, timeout=2400)  # one boot for the whole VRF suite (TCG: slow)
    tail = log[-6000:]
    assert rc == 0, tail
    assert " passed" in tail and " failed" not in tail and " skipped" not in tail
