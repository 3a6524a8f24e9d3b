"""The NSX stand-in wired to the session's vCenter simulator (its own distributed switch for segments)."""

from __future__ import annotations

import pytest

from tests.nsx.nsxsim import NsxSim, free_port
from tests.vsphere.conftest import HOST_NAMES, own_vcsim, vcsim, vcsim_binary  # noqa: F401
from vsphere.vim.driver import Driver

DC = "DC0"
NSX_DVS = "nsx-vds"


@pytest.fixture(scope="session")
def nsx_dvs(vcsim) -> str:  # noqa: F811 (the imported fixture)
    """The distributed switch NSX's segments become port groups on (the simulator has none of its own)."""
    with Driver(vcsim.config()) as drv:
        drv.switches.ensure(DC, NSX_DVS, "dvs:nsx", HOST_NAMES, "vmnic2")
    return NSX_DVS


@pytest.fixture(scope="session")
def nsxsim(vcsim, nsx_dvs, tmp_path_factory):  # noqa: F811
    """The shared stand-in for this session."""
    workdir = tmp_path_factory.mktemp("nsxsim")
    sim = NsxSim(workdir, free_port(), vcsim=vcsim, dvs=nsx_dvs, extra_args=("--realize-delay", "0.2")).start()
    yield sim
    sim.stop()


@pytest.fixture
def nsx(nsxsim):
    """The shared stand-in, faults cleared after the test."""
    yield nsxsim
    nsxsim.clear_faults()
