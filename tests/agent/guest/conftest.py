"""The VRF suite runs only on a kernel with VRF (the QEMU guest); elsewhere it is not collected."""

import subprocess

import pytest
from nodekit import UIDS, A, B  # tenants and their members' UIDs, shared by the guest suite
from topo import Topology, agent, desired, report


def _kernel_has_vrf() -> bool:
    cmd = "ip link add enclvrfprobe type vrf table 4294967001 && ip link del enclvrfprobe"
    return subprocess.run(["unshare", "-n", "sh", "-c", cmd], capture_output=True, check=False).returncode == 0


collect_ignore_glob = [] if _kernel_has_vrf() else ["test_*.py"]


@pytest.fixture(scope="package")
def net():
    """Both nodes realised once by the agent (tenants A and B); torn down after the guest suite."""
    t = Topology().build()
    try:
        for role, host in (("n1", 1), ("n2", 2)):
            rep = report(agent(t, role, desired(role, host, [A, B], uids=UIDS)))
            assert rep["node_errors"] == [] and rep["capabilities"]["vrf"] is True
            assert {v["status"] for v in rep["tenants"].values()} == {"ready"}
        yield t
    finally:
        t.destroy()
