"""What a session start (every ssh login through PAM, every Slurm task) asks of the kernel: only the links."""

import json
import os
import subprocess

import pytest
from enclave_agent import kernel, session
from topo import desired

UID = 65501


@pytest.mark.skipif(os.geteuid() != 0, reason="the state directory must be root-owned")
def test_a_session_start_spawns_one_ip_process_to_check_its_tenants_links(tmp_path, monkeypatch):
    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    (state / "desired.json").write_text(json.dumps(desired("n1", 1, [70001], uids={70001: [UID]})))
    (state / "status.json").write_text(json.dumps({"tenants": {"70001": {"status": "ready", "errors": []}}}))
    spawned = []

    def run(args, stdin=None):
        spawned.append(args)
        return subprocess.CompletedProcess(args, 0, "[]", "")  # no link: the network is incomplete

    monkeypatch.setattr(kernel, "_run", run)
    with pytest.raises(session.SessionRefused, match="incomplete"):
        session.ready_tenant(UID, state)
    assert spawned == [["ip", "-d", "-j", "link", "show", "group", str(kernel.GROUP)]]
