"""The node side of InfiniBand partitions: IB ports from sysfs, the tenant's IPoIB child, `pkey`."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from enclave_agent import ibports, nftables
from enclave_agent.agent import Agent
from enclave_agent.kernel import ApplyResult
from enclave_agent.plan import SYSCTLS, Capabilities, KernelState, OpKind, plan
from enclave_agent.state import StateError, parse
from enclave_agent.wire import ipoib_name
from topo import desired

VRF = Capabilities(vrf=True, vxlan=True, nftables=True)
GID = "fe80:0000:0000:0000:0002:c903:00a1:b2c1"


def fake_sysfs(root: Path, ports: dict, netdevs: dict) -> Path:
    """A /sys/class tree: {(device, port): (link_layer, gid0)} and {netdev: (device, dev_port, is_child)}."""
    for (device, port), (layer, gid) in ports.items():
        d = root / "infiniband" / device / "ports" / str(port)
        (d / "gids").mkdir(parents=True)
        (d / "link_layer").write_text(layer + "\n")
        (d / "gids" / "0").write_text(gid + "\n")
    for name, (device, dev_port, child) in netdevs.items():
        d = root / "net" / name
        (d / "device" / "infiniband" / device).mkdir(parents=True)
        (d / "type").write_text("32\n")
        (d / "dev_port").write_text(f"{dev_port}\n")
        if child:
            (d / "parent").write_text("ib0\n")
    return root


def ib_state(pkey="0x0012", parents=("ib0",), tenants=(70001,)):
    """A node document with IPoIB parents and tenant 70001 in partition `pkey`."""
    raw = desired("n1", 1, list(tenants), uids={70001: [65534]})
    raw["node"]["ipoib_parents"] = list(parents)
    raw["tenants"][0]["pkey"] = pkey
    return raw


def test_ib_ports_are_read_from_sysfs_with_their_guid_and_ipoib_interface(tmp_path):
    root = fake_sysfs(
        tmp_path,
        {("mlx5_0", 1): ("InfiniBand", GID), ("mlx5_0", 2): ("InfiniBand", GID.replace("b2c1", "b2c2")),
         ("mlx5_1", 1): ("Ethernet", GID.replace("b2c1", "0001"))},
        {"ib0": ("mlx5_0", 0, False), "ib1": ("mlx5_0", 1, False), "ib0.8012": ("mlx5_0", 0, True)},
    )  # fmt: skip
    assert ibports.read(root) == [
        {"device": "mlx5_0", "port": 1, "guid": "0x0002c90300a1b2c1", "netdev": "ib0"},
        {"device": "mlx5_0", "port": 2, "guid": "0x0002c90300a1b2c2", "netdev": "ib1"},
    ]  # the RoCE port and the IPoIB child are not IB ports of the node


@pytest.mark.parametrize(
    "gid",
    ["fe80:0000:0000:0000:0000:0000:0000:0000", "FE80:0000:0000:0000:0002:C903:00A1:B2C1", GID + "; reboot", "x"],
)
def test_a_port_whose_gid_fails_the_grammar_is_left_out(tmp_path, gid):
    assert ibports.read(fake_sysfs(tmp_path, {("mlx5_0", 1): ("InfiniBand", gid)}, {})) == []


def test_a_node_without_infiniband_reports_no_ports(tmp_path):
    assert ibports.read(tmp_path) == []


def test_the_tenant_gets_an_ipoib_child_for_its_key_as_full_member_inside_its_vrf():
    state = parse(ib_state())
    assert state.tenants[0].ipoib == (("ib0", "ib0.8012"),)
    actual = KernelState(sysctls=dict(SYSCTLS), present=frozenset({"eth0", "ib0"}))
    create = next(op for op in plan(actual, state, VRF, nftables.transaction(state)).ops if op.kind == OpKind.CREATE)
    assert "link add link ib0 name ib0.8012 group 4242 type ipoib pkey 0x8012" in create.ip
    assert "link set ib0.8012 master vrf70001" in create.ip
    assert create.ip.index("link set ib0.8012 master vrf70001") > create.ip.index(
        "link add vrf70001 group 4242 type vrf table 16847217"
    )


def test_a_tenant_without_a_partition_gets_no_ipoib_child():
    raw = ib_state()
    del raw["tenants"][0]["pkey"]
    state = parse(raw)
    assert state.tenants[0].ipoib == ()
    lines = [line for op in plan(KernelState(), state, VRF, nftables.transaction(state)).ops for line in op.ip]
    assert not any("ipoib" in line for line in lines)


def test_a_missing_ib_interface_blocks_the_tenant_and_says_why():
    state = parse(ib_state())
    actual = KernelState(sysctls=dict(SYSCTLS), present=frozenset({"eth0"}))
    result = plan(actual, state, VRF, nftables.transaction(state))
    assert result.blocked[70001] == "ib0.8012: InfiniBand interface ib0 does not exist on this node"


def test_a_long_parent_name_gets_a_hashed_child_within_ifnamsiz():
    name = ipoib_name("ibp161s0f0np0", 0x0012)
    assert len(name) <= 15 and name != ipoib_name("ibp161s0f0np1", 0x0012)
    assert ipoib_name("ib0", 0x7FFE) == "ib0.fffe"


@pytest.mark.parametrize("pkey", ["0x7fff", "0x0000", "0x12", "0X0012", "0x0012 type vrf", 18])
def test_a_bad_partition_key_refuses_the_whole_document(pkey):
    with pytest.raises(StateError, match="refused"):
        parse(ib_state(pkey=pkey))


@pytest.mark.parametrize("parent", ["ib0 type vrf", "../ib0", "", 5])
def test_a_bad_ipoib_parent_refuses_the_whole_document(parent):
    with pytest.raises(StateError, match="refused"):
        parse(ib_state(parents=(parent,)))


def test_an_old_document_without_infiniband_keys_parses_as_before():
    state = parse(desired("n1", 1, [70001]))
    assert state.node.ipoib_parents == () and state.tenants[0].pkey is None


def _agent_cli(state_dir: Path, *command: str) -> subprocess.CompletedProcess:
    argv = [sys.executable, "-m", "enclave_agent.cli", "--state-dir", str(state_dir), *command]
    env = {"PATH": os.environ["PATH"], "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "agent")}
    return subprocess.run(argv, capture_output=True, text=True, env=env, timeout=60, check=False)  # noqa: S603


def _state_dir(tmp_path: Path) -> Path:
    """A root-owned state directory holding ib_state() (UID 65534 in tenant 70001, key 0x0012)."""
    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    (state / "desired.json").write_text(json.dumps(ib_state()))
    (state / "status.json").write_text(json.dumps({"tenants": {}}))
    return state


@pytest.mark.skipif(os.geteuid() != 0, reason="the state directory must be root-owned")
def test_the_pkey_command_prints_the_uids_tenant_key_and_refuses_strangers(tmp_path):
    state = _state_dir(tmp_path)
    answer = _agent_cli(state, "pkey", "--uid", "65534")
    assert (answer.returncode, answer.stdout) == (0, "0x0012\n")
    stranger = _agent_cli(state, "pkey", "--uid", "4242")
    assert stranger.returncode == 1 and "not a member of any tenant" in stranger.stderr


@pytest.mark.skipif(os.geteuid() != 0, reason="the state directory must be root-owned")
def test_the_task_hooks_enter_with_pkey_refuses_a_stranger_before_any_key_and_needs_a_pid(tmp_path):
    state = _state_dir(tmp_path)
    stranger = _agent_cli(state, "enter", "--uid", "4242", "--pid", str(os.getpid()), "--pkey")
    assert (stranger.returncode, stranger.stdout) == (1, "")  # refused before it could print a key
    assert "not a member of any tenant" in stranger.stderr
    alone = _agent_cli(state, "enter", "--uid", "65534", "--pkey")
    assert alone.returncode == 2 and "enter --pkey needs --pid" in alone.stderr


def _ib_parent() -> str | None:
    """An IPoIB interface of this machine (type 32), if it has InfiniBand hardware."""
    return next((n.name for n in Path("/sys/class/net").glob("*") if (n / "type").read_text().strip() == "32"), None)


def test_the_kernel_creates_the_ipoib_child_where_the_node_has_infiniband():
    parent = _ib_parent()
    if parent is None or os.geteuid() != 0 or shutil.which("ip") is None:
        pytest.skip("no IPoIB interface here (no InfiniBand HCA / ib_ipoib): the kernel cannot create the child")
    child = ipoib_name(parent, 0x7FF0)
    try:
        subprocess.run(
            ["ip", "link", "add", "link", parent, "name", child, "type", "ipoib", "pkey", "0xfff0"], check=True
        )
        info = json.loads(
            subprocess.run(["ip", "-d", "-j", "link", "show", child], capture_output=True, check=True).stdout
        )
        assert info[0]["linkinfo"]["info_kind"] == "ipoib"
    finally:
        subprocess.run(["ip", "link", "del", child], check=False)


@pytest.mark.skipif(os.geteuid() != 0, reason="the agent probes the kernel as root")
def test_the_node_agents_report_carries_its_ib_ports(tmp_path, monkeypatch):
    monkeypatch.setattr(ibports, "SYSFS", fake_sysfs(tmp_path / "sys", {("mlx5_0", 1): ("InfiniBand", GID)}, {}))
    agent = Agent(tmp_path / "state")
    assert agent.ib_ports == [{"device": "mlx5_0", "port": 1, "guid": "0x0002c90300a1b2c1", "netdev": None}]
    state = parse(desired("n1", 1, []))
    report = agent._report(state, plan(KernelState(), state, VRF, ("d", "")), ApplyResult(), False, 0.1)
    assert report.to_dict()["ib_ports"] == agent.ib_ports
