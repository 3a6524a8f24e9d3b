"""Fixtures for the node-agent tests: real namespaces, unique names, always cleaned up."""

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from topo import Topology  # noqa: E402


def pytest_collection_modifyitems(config, items):
    """Kernel tests need root; skip them (visibly) otherwise."""
    if os.geteuid() == 0:
        return
    for item in items:
        if "topo" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.skip(reason="needs root for network namespaces"))


@pytest.fixture
def topo():
    """A fresh two-node topology, destroyed even when the test fails."""
    t = Topology()
    try:
        yield t.build()
    finally:
        t.destroy()
