"""Fixtures for the fabric tests: one simulated fabric (ibsim + OpenSM) per module, always stopped."""

import pytest

from tests.fabric.portal_double import PortalDouble
from tests.fabric.simfabric import SimFabric, available

# Two tenants, each with a bare-metal node's HCA port and a VM's SR-IOV VF; one storage port all reach.
PORTS = {
    "a-node": None,
    "a-vf": "0x0002c903a0000a01",
    "b-node": None,
    "b-vf": "0x0002c903b0000b01",
    "storage": None,
    "idle": None,
}


@pytest.fixture(scope="module")
def fabric(tmp_path_factory):
    """A running simulated fabric with OpenSM, stopped after the module even when a test fails."""
    reason = available()
    if reason:
        pytest.skip(reason)
    with SimFabric(tmp_path_factory.mktemp("fabric"), PORTS) as fab:
        yield fab


@pytest.fixture(scope="module")
def portal():
    """The portal's fabric endpoints, served by a stdlib double."""
    with PortalDouble("ib0") as double:
        yield double
