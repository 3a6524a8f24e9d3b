"""The VRF suite runs only on a kernel with VRF (the QEMU guest); elsewhere it is not collected."""

import subprocess


def _kernel_has_vrf() -> bool:
    cmd = "ip link add enclvrfprobe type vrf table 4294967001 && ip link del enclvrfprobe"
    return subprocess.run(["unshare", "-n", "sh", "-c", cmd], capture_output=True,
                          check=False).returncode == 0


collect_ignore_glob = [] if _kernel_has_vrf() else ["test_*.py"]
