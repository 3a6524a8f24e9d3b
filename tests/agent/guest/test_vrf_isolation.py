"""Isolation on a real VRF kernel: two nodes, two tenants each, as the UVN paper tested."""

import json
import time

from nodekit import UIDS, A, B  # as the `net` fixture (conftest.py) realises them
from topo import AGENT, NOSITE, OUTSIDE, PROBE, SUBNET, Topology, agent, desired, report

VRF_A, VRF_B = f"vrf{A}", f"vrf{B}"


def test_tenant_reaches_its_own_listener_on_another_node(net):
    net.listen("n2", 5000, dev=VRF_A)
    assert net.connect("n1", f"{SUBNET}.2", 5000, dev=VRF_A).startswith("echo:hi")


def test_tenant_cannot_reach_another_tenants_listener_across_nodes(net):
    net.listen("n2", 5001, dev=VRF_B)
    assert net.connect("n1", f"{SUBNET}.2", 5001, dev=VRF_A) == ""
    assert net.connect("n1", f"{SUBNET}.2", 5001, dev=VRF_B).startswith("echo:hi")


def test_tenant_cannot_reach_another_tenants_listener_on_the_same_node(net):
    net.listen("n1", 5002, dev=VRF_B, addr="127.0.0.1")
    assert net.connect("n1", "127.0.0.1", 5002, dev=VRF_A) == ""
    assert net.connect("n1", "127.0.0.1", 5002) == ""  # not even the default VRF
    assert net.connect("n1", "127.0.0.1", 5002, dev=VRF_B).startswith("echo:hi")


def test_same_vrf_on_two_nodes_can_ping(net):
    ping = net.ex("n1", "ping", "-c", "1", "-W", "3", "-I", VRF_A, f"{SUBNET}.2", check=False)
    assert ping.returncode == 0, ping.stdout + ping.stderr


def test_off_subnet_access_works_through_snat(net):
    """Regression for defect 2: the CGNAT /32 is global scope, so replies come back."""
    net.listen("out", 8080)
    answer = net.connect("n1", f"{OUTSIDE}.2", 8080, dev=VRF_A)
    assert answer == f"echo:hi:from={SUBNET}.1"
    addrs = json.loads(net.ex("n1", "ip", "-j", "addr", "show", "dev", VRF_A).stdout)
    cgnat = [a for a in addrs[0]["addr_info"] if a["local"].startswith("100.")]
    assert [a["scope"] for a in cgnat] == ["global"]


def test_sshd_in_the_default_vrf_serves_tenant_sessions(net):
    net.listen("n1", 22)
    assert net.connect("n1", "127.0.0.1", 22, dev=VRF_A).startswith("echo:hi")


def test_firewall_lets_the_outside_reach_only_ssh_on_the_login_node(net):
    net.listen("n1", 22)
    net.listen("n1", 8081)
    assert net.connect("out", f"{SUBNET}.1", 22).startswith("echo:hi")
    assert net.connect("out", f"{SUBNET}.1", 8081) == ""
    assert net.connect("n2", f"{SUBNET}.1", 8081).startswith("echo:hi")  # on-subnet allowed


def _inject(net: Topology, count: int = 3) -> str:
    """Tenant A on n1 sends B's VNI to n2's VXLAN port; return what B's listener saw."""
    mac = json.loads(net.ex("n2", "ip", "-j", "link", "show", "dev", f"eth0u{B}").stdout)
    listener = net.spawn("n2", *NOSITE, PROBE, "listen", "--udp", "--port", "9999", "--dev", VRF_B, "--timeout", "120")
    assert listener.stdout.readline().strip() == "READY"
    net.ex(
        "n1",
        *NOSITE,
        PROBE,
        "inject",
        f"{SUBNET}.2",
        "4789",
        "--dev",
        VRF_A,
        "--vni",
        str(B),
        "--inner-mac",
        mac[0]["address"],
        "--inner-src",
        f"{SUBNET}.1",
        "--inner-dst",
        f"{SUBNET}.2",
        "--inner-port",
        "9999",
        "--count",
        str(count),
    )
    # The datagrams were sent when inject returned; give delivery a moment, then stop listening.
    # (An idle timeout counted from READY raced the injector's start-up on a loaded emulator.)
    time.sleep(2)
    listener.terminate()
    out, _ = listener.communicate(timeout=30)
    return out


def test_vxlan_header_injection_into_another_tenant_fails(net):
    """Regression for defect 1: udp_l3mdev_accept=0 and the underlay-only VXLAN port guard."""
    assert net.ex("n2", "sysctl", "-n", "net.ipv4.udp_l3mdev_accept").stdout.strip() == "0"
    assert "INJECTED" not in _inject(net)


def test_guard_alone_blocks_injection_even_with_udp_l3mdev_accept_on(net):
    net.ex("n2", "sysctl", "-qw", "net.ipv4.udp_l3mdev_accept=1")
    try:
        assert "INJECTED" not in _inject(net)
    finally:
        net.ex("n2", "sysctl", "-qw", "net.ipv4.udp_l3mdev_accept=0")


def test_injection_succeeds_without_both_defences_so_the_test_can_fail(net):
    """Negative control: reproduce the paper's configuration, then let the agent repair it."""
    net.ex("n2", "sysctl", "-qw", "net.ipv4.udp_l3mdev_accept=1")
    net.ex("n2", "nft", "delete", "table", "inet", "enclave_agent")
    try:
        assert "INJECTED" in _inject(net)
    finally:
        rep = report(agent(net, "n2", desired("n2", 2, [A, B], uids=UIDS)))
    assert rep["ops"] == 2 and rep["node_errors"] == []  # sysctl + nft transaction
    assert "INJECTED" not in _inject(net)


def test_scope_host_cgnat_breaks_off_subnet_and_full_sync_repairs_it(net):
    """Negative control for defect 2: the paper's scope-host address loses the replies."""
    cg = desired("n1", 1, [A])["tenants"][0]["cgnat"]
    net.ex("n1", "ip", "addr", "del", cg, "dev", VRF_A)
    net.ex("n1", "ip", "addr", "add", cg, "dev", VRF_A, "scope", "host")
    net.listen("out", 8082)
    try:
        assert net.connect("n1", f"{OUTSIDE}.2", 8082, dev=VRF_A) == ""
    finally:
        rep = report(agent(net, "n1", desired("n1", 1, [A, B], uids=UIDS)))
    assert rep["tenants"][str(A)]["status"] == "ready"
    net.listen("out", 8083)
    assert net.connect("n1", f"{OUTSIDE}.2", 8083, dev=VRF_A).startswith("echo:hi")


def test_reapplying_the_same_state_computes_zero_ops(net):
    rep = report(agent(net, "n1", desired("n1", 1, [A, B], uids=UIDS)))
    assert rep["ops"] == 0 and rep["processes"] == 0


def test_enter_runs_the_command_as_the_user_inside_the_tenant_vrf(net):
    state_dir = f"/tmp/{net.prefix}-n1"
    out = net.ex(
        "n1",
        *AGENT,
        "--state-dir",
        state_dir,
        "enter",
        "--uid",
        "65534",
        "--",
        "sh",
        "-c",
        "id -u; id -G; ip vrf identify",
        check=False,
    )
    assert out.stdout.split() == ["65534", "65534", VRF_A], out.stderr  # nobody, nogroup, not root


def test_enter_refuses_a_uid_without_tenant(net):
    state_dir = f"/tmp/{net.prefix}-n1"
    out = net.ex(
        "n1",
        *AGENT,
        "--state-dir",
        state_dir,
        "enter",
        "--uid",
        "4242",
        "--",
        "true",
        check=False,
    )
    assert out.returncode == 1 and "session refused" in out.stderr


def test_enter_moves_a_running_session_into_the_tenant_vrf(net):
    """What the pam_exec hook and the Slurm task hook do: move an existing process."""
    state_dir = f"/tmp/{net.prefix}-n1"
    session = net.spawn("n1", "sleep", "60")
    pid = session.pid  # `ip netns exec` execs, so this is the sleep itself
    out = net.ex(
        "n1",
        *AGENT,
        "--state-dir",
        state_dir,
        "enter",
        "--uid",
        "65534",
        "--pid",
        str(pid),
        check=False,
    )
    assert out.returncode == 0, out.stderr
    assert net.ex("n1", "ip", "vrf", "identify", str(pid)).stdout.strip() == VRF_A
    session.kill()


def test_enter_refuses_when_the_tenant_network_is_incomplete(net):
    state_dir = f"/tmp/{net.prefix}-n1"
    net.ex("n1", "ip", "link", "del", f"eth0u{B}")
    try:
        out = net.ex(
            "n1",
            *AGENT,
            "--state-dir",
            state_dir,
            "enter",
            "--uid",
            "65533",
            "--",
            "true",
            check=False,
        )
        assert out.returncode == 1 and f"eth0u{B}" in out.stderr and "refused" in out.stderr
    finally:
        rep = report(agent(net, "n1", desired("n1", 1, [A, B], uids=UIDS)))
    assert rep["tenants"][str(B)]["status"] == "ready"
