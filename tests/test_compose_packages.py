"""The compose smoke's package list names what the container engine needs but does not declare."""

from pathlib import Path

LIST = Path(__file__).resolve().parent.parent / "deps" / "apt-compose.txt"


def _packages() -> set[str]:
    lines = (line.strip() for line in LIST.read_text().splitlines())
    return {line for line in lines if line and not line.startswith("#")}


def test_the_compose_package_list_installs_iptables_for_netavark():
    # netavark 1.4 (Debian 12) calls iptables without depending on it; a machine without it cannot build images.
    assert {"netavark", "iptables"} <= _packages()
