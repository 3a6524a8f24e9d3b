"""Agent lifecycle on a real VRF kernel: crash, outage, removal, teardown, ownership."""

import json
import os
import signal
import subprocess
from pathlib import Path

from enclave_agent.kernel import PROBE_NAME
from topo import AGENT, NOSITE, SUBNET, agent, desired, report, wait_for

A, B, C = 70001, 70002, 70003
DOUBLE = str(Path(__file__).parent.parent / "portal_double.py")


def _owned_links(topo, role):
    links = json.loads(topo.ex(role, "ip", "-j", "link", "show", "group", "4242").stdout)
    return {x["ifname"] for x in links if "ifname" in x}


def _tenant_links(topo, role):
    """Owned links but the agent's start-up probe (added and deleted at once, also in the group)."""
    return _owned_links(topo, role) - {PROBE_NAME}


def test_killing_the_agent_mid_apply_then_restarting_converges(topo):
    state = desired("n1", 1, list(range(71000, 71060)))
    path = Path(f"/tmp/{topo.prefix}-n1")
    path.mkdir(parents=True, exist_ok=True)
    (path / "in.json").write_text(json.dumps(state))
    with open(path / "agent.err", "w") as err:
        proc = subprocess.Popen(
            [
                "ip",
                "netns",
                "exec",
                topo.ns("n1"),
                *AGENT,
                "--state-dir",
                str(path),
                "apply",
                "--file",
                str(path / "in.json"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=err,
            start_new_session=True,
        )
    # Seeing only the probe here, then killing, left no link at all (fresh-clone run, 11-27).
    wait_for(lambda: _tenant_links(topo, "n1") or proc.poll() is not None, "first link")
    os.killpg(proc.pid, signal.SIGKILL)  # like systemd killing the whole unit cgroup
    proc.wait()
    half = _tenant_links(topo, "n1")
    assert 0 < len(half) < 120, (
        "the kill must land mid-apply for this test to mean anything; agent exit "
        f"{proc.returncode}: {(path / 'agent.err').read_text()[-2000:]}"
    )
    rep = report(agent(topo, "n1", state))
    assert rep["node_errors"] == [] and {v["status"] for v in rep["tenants"].values()} == {"ready"}
    assert len(_owned_links(topo, "n1")) == 120
    assert report(agent(topo, "n1", state))["ops"] == 0


def test_removed_tenant_is_torn_down_and_foreign_objects_survive(topo):
    topo.ex("n1", "ip", "link", "add", "foreign0", "type", "vxlan", "id", "9", "dstport", "4999", "dev", "eth0")
    topo.ex("n1", "nft", "add", "table", "inet", "other")
    assert report(agent(topo, "n1", desired("n1", 1, [A, B])))["ops"] > 0
    rep = report(agent(topo, "n1", desired("n1", 1, [A], generation=2)))
    assert list(rep["tenants"]) == [str(A)] and rep["node_errors"] == []
    assert _owned_links(topo, "n1") == {f"vrf{A}", f"eth0u{A}"}
    routes = topo.ex("n1", "ip", "route", "show", "table", "all", "proto", "189").stdout
    assert str(B) not in routes and "100.65.17.115" not in routes
    links = topo.ex("n1", "ip", "-br", "link").stdout
    assert "foreign0" in links and "eth0" in links
    assert "table inet other" in topo.ex("n1", "nft", "list", "tables").stdout


def test_changing_one_tenant_touches_only_that_tenant(topo):
    agent(topo, "n1", desired("n1", 1, [A, B]))
    changed = desired("n1", 1, [A, B], generation=2)
    changed["tenants"][1]["vxlans"][0]["dstport"] = 4790
    rep = report(agent(topo, "n1", changed))
    assert rep["node_errors"] == []
    assert rep["ops"] == 3  # nft (new port in the guard), delete + create of B's VXLAN only
    assert {v["status"] for v in rep["tenants"].values()} == {"ready"}


def test_teardown_removes_everything_owned_and_nothing_else(topo):
    topo.ex("n1", "nft", "add", "table", "inet", "other")
    agent(topo, "n1", desired("n1", 1, [A, B]))
    out = agent(topo, "n1", {}, "teardown")
    assert out.returncode == 0, out.stdout + out.stderr
    assert _owned_links(topo, "n1") == set()
    assert topo.ex("n1", "ip", "route", "show", "table", "all", "proto", "189").stdout == ""
    assert topo.ex("n1", "nft", "list", "tables").stdout.strip() == "table inet other"
    assert f"{SUBNET}.1/24" in topo.ex("n1", "ip", "-br", "addr", "show", "eth0").stdout


def _start_portal(topo, state_file, observed):
    proc = topo.spawn("n1", *NOSITE, DOUBLE, "--port", "8765", "--state", str(state_file), "--observed", str(observed))
    assert proc.stdout.readline().strip() == "READY"
    return proc


def _observed_generation(path):
    try:
        return json.loads(path.read_text()).get("generation")
    except (OSError, ValueError):
        return None


def test_join_then_control_plane_outage_keeps_last_state_and_retries(topo):
    work = Path(f"/tmp/{topo.prefix}-portal")
    work.mkdir()
    state_file, observed = work / "state.json", work / "observed.json"
    state_file.write_text(json.dumps(desired("n1", 1, [A])))
    portal = _start_portal(topo, state_file, observed)
    sdir = f"/tmp/{topo.prefix}-n1run"
    cli = [*AGENT, "--state-dir", sdir]
    joined = topo.ex(
        "n1", *cli, "join", "--server", "http://127.0.0.1:8765", "--token", "join-once", "--hostname", "n1"
    )
    assert "joined as node n1" in joined.stdout
    assert os.stat(f"{sdir}/credential.json").st_mode & 0o777 == 0o600
    again = topo.ex("n1", *cli, "join", "--server", "http://127.0.0.1:8765", "--token", "join-once", check=False)
    assert again.returncode != 0  # one-time token
    log = work / "agent.log"
    with open(log, "w") as fh:
        runner = subprocess.Popen(
            ["ip", "netns", "exec", topo.ns("n1"), *cli, "run", "--wait", "1"], stdout=fh, stderr=fh
        )
    topo.procs.append(runner)
    wait_for(lambda: _observed_generation(observed) == 1, "generation 1 reported")
    portal.kill()
    portal.wait()
    state_file.write_text(json.dumps(desired("n1", 1, [A, B], generation=2)))
    wait_for(lambda: "keeping last state" in log.read_text(), "a retry while down")
    assert runner.poll() is None and _owned_links(topo, "n1") == {f"vrf{A}", f"eth0u{A}"}
    _start_portal(topo, state_file, observed)
    wait_for(lambda: _observed_generation(observed) == 2, "generation 2 after the outage")
    assert _owned_links(topo, "n1") == {f"vrf{A}", f"eth0u{A}", f"vrf{B}", f"eth0u{B}"}
    tenants = json.loads(observed.read_text())["tenants"]
    assert {v["status"] for v in tenants.values()} == {"ready"}


def test_one_tenants_failure_does_not_block_the_others_and_fails_closed(topo):
    topo.ex("n1", "ip", "link", "add", f"vrf{B}", "type", "dummy")  # not ours: name collision
    state = desired("n1", 1, [A, B, C], uids={A: [65534], B: [65533]})
    out = agent(topo, "n1", state)
    rep = report(out)
    assert out.returncode == 1
    assert rep["tenants"][str(A)] == rep["tenants"][str(C)] == {"status": "ready", "errors": []}
    assert rep["tenants"][str(B)]["status"] == "failed"
    assert any("File exists" in e for e in rep["tenants"][str(B)]["errors"])
    refused = agent(topo, "n1", {}, "enter", "--uid", "65533", "--", "true")
    assert refused.returncode == 1 and "not ready" in refused.stderr
    assert "dummy" in topo.ex("n1", "ip", "-d", "link", "show", f"vrf{B}").stdout  # untouched
    topo.ex("n1", "ip", "link", "del", f"vrf{B}")
    fixed = report(agent(topo, "n1", desired("n1", 1, [A, B, C], generation=2)))
    assert {v["status"] for v in fixed["tenants"].values()} == {"ready"}


def test_a_tenant_on_a_missing_underlay_is_refused_not_half_built(topo):
    state = desired("n1", 1, [A, B])
    state["node"]["interfaces"].append({"name": "eth9", "address": "10.9.0.1/24"})
    state["tenants"][1]["vxlans"][0]["underlay"] = "eth9"  # declared, but absent here
    rep = report(agent(topo, "n1", state))
    assert rep["tenants"][str(A)]["status"] == "ready"
    assert rep["tenants"][str(B)]["status"] == "not_ready"
    assert "eth9 does not exist" in rep["tenants"][str(B)]["errors"][0]
    assert _owned_links(topo, "n1") == {f"vrf{A}", f"eth0u{A}"}
