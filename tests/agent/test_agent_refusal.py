"""A document that fails the grammar is refused whole, reported, and changes nothing on the node."""

import json
import subprocess
from pathlib import Path

from portal_double import RENEWED
from topo import PY, agent, desired, wait_for

DOUBLE = str(Path(__file__).with_name("portal_double.py"))


def _injected(generation=2):
    doc = desired("n1", 1, [70001], generation=generation)
    doc["node"]["interfaces"][0]["name"] = "eth0\nlink del lo"
    doc["tenants"][0]["vxlans"][0]["device"] = "x\nlink del lo"
    doc["nftables"] = "flush ruleset\n"
    return doc


def _kernel(topo):
    links = topo.ex("n1", "ip", "-br", "link").stdout
    return links, topo.ex("n1", "nft", "list", "ruleset").stdout


def test_apply_refuses_an_injected_document_and_leaves_the_kernel_as_it_was(topo):
    topo.ex("n1", "nft", "add", "table", "inet", "other")
    agent(topo, "n1", desired("n1", 1, [70001]))
    before = _kernel(topo)
    out = agent(topo, "n1", _injected())
    assert out.returncode == 1 and "desired state refused" in out.stderr and "link del lo" in out.stderr
    assert _kernel(topo) == before and "lo" in before[0]


def _observed(path):
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return {}


def test_the_agent_reports_a_refused_document_keeps_the_last_one_and_renews_its_credential(topo):
    work = Path(f"/tmp/{topo.prefix}-portal")
    work.mkdir()
    state_file, observed = work / "state.json", work / "observed.json"
    state_file.write_text(json.dumps(desired("n1", 1, [70001])))
    portal = topo.spawn("n1", PY, DOUBLE, "--port", "8766", "--state", str(state_file), "--observed", str(observed))
    assert portal.stdout.readline().strip() == "READY"
    sdir = Path(f"/tmp/{topo.prefix}-n1run")
    cli = [PY, "-m", "enclave_agent.cli", "--state-dir", str(sdir)]
    topo.ex("n1", *cli, "join", "--server", "http://127.0.0.1:8766", "--token", "join-once", "--hostname", "n1")
    cred = json.loads((sdir / "credential.json").read_text())
    assert cred["expires"] - cred["issued"] == 3600
    (sdir / "credential.json").write_text(json.dumps(cred | {"issued": 0, "expires": 3}))  # long due
    with open(work / "agent.log", "w") as log:
        runner = subprocess.Popen(
            ["ip", "netns", "exec", topo.ns("n1"), *cli, "run", "--wait", "1"], stdout=log, stderr=log
        )
    topo.procs.append(runner)
    wait_for(lambda: _observed(observed).get("generation") == 1, "generation 1 reported")
    nft_before = topo.ex("n1", "nft", "list", "table", "inet", "enclave_agent").stdout
    state_file.write_text(json.dumps(_injected()))
    wait_for(lambda: any("refused" in e for e in _observed(observed).get("node_errors", [])), "refusal reported")
    report = _observed(observed)
    assert report["generation"] == 1 and "link del lo" in " ".join(report["node_errors"])
    assert topo.ex("n1", "nft", "list", "table", "inet", "enclave_agent").stdout == nft_before
    assert "lo" in topo.ex("n1", "ip", "-br", "link").stdout
    assert json.loads((sdir / "credential.json").read_text())["credential"] == RENEWED
    state_file.write_text(json.dumps(desired("n1", 1, [70001], generation=3)))
    wait_for(lambda: _observed(observed).get("generation") == 3, "a good document after the bad one")
    assert not any("refused" in e for e in _observed(observed)["node_errors"])
