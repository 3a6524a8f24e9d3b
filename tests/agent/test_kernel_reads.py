"""How many processes the agent's kernel reads start: each costs a node a fork and an exec, every pass, every
login and every Slurm task (and the VRF guest's emulated CPU a sixth of a second)."""

import json
import os
import re
import subprocess

import pytest
from enclave_agent import kernel, session
from topo import desired

UID = 65501


@pytest.fixture
def spawned(monkeypatch):
    """Every process the kernel module starts, answered as `ip -j` would on a node with nothing of ours:
    one empty JSON list per command of a batch, and `nft` tables that do not exist."""
    calls = []

    def run(args, stdin=None):
        calls.append((args, stdin))
        if args[0] == "nft":
            return subprocess.CompletedProcess(args, 1, "", "Error: No such file or directory")
        lists = "[]\n" * (len(stdin.splitlines()) if stdin else 1)
        return subprocess.CompletedProcess(args, 0, lists, "")

    monkeypatch.setattr(kernel, "_run", run)
    return calls


@pytest.mark.skipif(os.geteuid() != 0, reason="the state directory must be root-owned")
def test_a_session_start_spawns_one_ip_process_to_check_its_tenants_links(tmp_path, spawned):
    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    (state / "desired.json").write_text(json.dumps(desired("n1", 1, [70001], uids={70001: [UID]})))
    (state / "status.json").write_text(json.dumps({"tenants": {"70001": {"status": "ready", "errors": []}}}))
    with pytest.raises(session.SessionRefused, match="incomplete"):  # no link: the network is incomplete
        session.ready_tenant(UID, state)
    assert [args for args, _ in spawned] == [["ip", "-d", "-j", "link", "show", "group", str(kernel.GROUP)]]


def test_a_full_read_spawns_two_ip_processes_and_one_nft_when_our_table_is_missing(spawned):
    state = kernel.read(full=True)
    assert state.links == {} and state.addrs == {} and state.routes == frozenset() and state.nft_digest is None
    assert [(args[0], args[1]) for args, _ in spawned] == [("ip", "-d"), ("nft", "-t"), ("ip", "-6")]
    batch = spawned[0][1].splitlines()
    assert batch == [f"link show group {kernel.GROUP}", "rule show", "addr show",
                     f"route show table all proto {kernel.PROTO}"]  # fmt: skip


def test_an_ip_batch_that_prints_fewer_lists_than_it_was_given_commands_is_an_error(monkeypatch):
    monkeypatch.setattr(kernel, "_run", lambda args, stdin=None: subprocess.CompletedProcess(args, 0, "[]\n", ""))
    with pytest.raises(ValueError):
        kernel._ip_reads(["link show", "rule show"])


def test_a_failed_ip_batch_says_which_reads_it_was(monkeypatch):
    failed = subprocess.CompletedProcess([], 1, "", 'Object "x" is unknown')
    monkeypatch.setattr(kernel, "_run", lambda args, stdin=None: failed)
    with pytest.raises(OSError, match=re.escape("ip link show | rule show: Object")):
        kernel._ip_reads(["link show", "rule show"])


def test_a_real_ip_reads_several_lists_in_one_process():
    lo, rules = kernel._ip_reads(["link show dev lo", "rule show"])
    assert lo[0]["ifname"] == "lo" and any(r.get("table") == "main" for r in rules)
