"""Partitions on a real subnet manager: OpenSM programming a simulated fabric (ibsim) from the agent.

Every assertion reads the ports' P_Key tables from the fabric itself (SMPs via infiniband-diags).
"""

import json
import subprocess
import sys

import pytest
from enclave_agent.fabric.agent import FabricAgent, FabricClient, loop, one_pass
from enclave_agent.fabric.diags import Diags
from enclave_agent.fabric.opensm import OpenSM
from enclave_agent.fabric.realizer import isolation_errors
from enclave_agent.fabric_wire import parse_desired

from tests.fabric.portal_double import CREDENTIAL, TOKEN
from tests.fabric.simfabric import ROOT, SimFabric

DEFAULT_FULL, DEFAULT_LIMITED = 0xFFFF, 0x7FFF
A, B = 0x0012, 0x0013


def document(fabric, generation, partitions, shared=("storage",)):
    """A desired document naming ports by their test names."""
    return {
        "schema": 1,
        "generation": generation,
        "fabric": "ib0",
        "kind": "opensm",
        "shared": {"full": [fabric.guids[n] for n in shared]},
        "partitions": [
            {"pkey": f"0x{key:04x}", "ipoib": True, "mtu": 4, "full": [fabric.guids[n] for n in names]}
            for key, names in partitions.items()
        ],
    }


def two_tenants(fabric, generation=1):
    """Tenant A (node + VF) in 0x0012, tenant B (node + VF) in 0x0013."""
    return document(fabric, generation, {A: ["a-node", "a-vf"], B: ["b-node", "b-vf"]})


def agent_pass(fabric, portal, desired, tmp_path):
    """Serve desired and run one fabric agent pass against the portal double; the posted report."""
    portal.desired = desired
    report = fabric.agent_pass(portal.url, "ib0", CREDENTIAL, tmp_path / "agent")
    assert portal.reports[-1] == report
    return report


def test_without_the_agent_both_tenants_ports_are_full_members_of_the_default_partition(fabric):
    """Negative control: OpenSM's own default lets tenant A's and B's ports talk (both full in 0x7fff)."""
    fabric.partitions.unlink(missing_ok=True)
    fabric.power_cycle()
    tables = fabric.tables()
    for name in ("a-node", "a-vf", "b-node", "b-vf"):
        assert DEFAULT_FULL in tables[fabric.guids[name]]
    assert isolation_errors(two_tenants(fabric), tables)


def test_each_tenants_ports_hold_their_own_key_as_full_member_and_never_the_others(fabric, portal, tmp_path):
    """Two tenants' partitions: every port full in its tenant's key only."""
    report = agent_pass(fabric, portal, two_tenants(fabric), tmp_path)
    assert report["errors"] == []
    assert report["applied_generation"] == 1
    tables = fabric.tables()
    for name, own, other in (("a-node", A, B), ("a-vf", A, B), ("b-node", B, A), ("b-vf", B, A)):
        table = set(tables[fabric.guids[name]])
        assert own | 0x8000 in table
        assert not {other, other | 0x8000} & table
    assert isolation_errors(two_tenants(fabric), tables, {fabric.sm_guid}) == []
    assert report["ports"][fabric.guids["a-vf"]] == ["0x7fff", "0x8012"]


def test_tenant_ports_are_limited_in_the_default_partition_and_shared_ports_full(fabric, portal, tmp_path):
    """IPoIB broadcast and SA queries keep working (limited 0x7fff); storage is full in 0x7fff only."""
    agent_pass(fabric, portal, two_tenants(fabric), tmp_path)
    tables = fabric.tables()
    for name in ("a-node", "a-vf", "b-node", "b-vf", "idle"):
        assert DEFAULT_LIMITED in tables[fabric.guids[name]]
        assert DEFAULT_FULL not in tables[fabric.guids[name]]
    assert set(tables[fabric.guids["storage"]]) == {DEFAULT_FULL}


def test_a_removed_partition_and_a_removed_port_are_gone_from_the_tables(fabric, portal, tmp_path):
    """Decommission: B's partition leaves the desired document, A's VF leaves A's partition."""
    agent_pass(fabric, portal, two_tenants(fabric), tmp_path)
    report = agent_pass(fabric, portal, document(fabric, 2, {A: ["a-node"]}), tmp_path)
    assert report["errors"] == []
    for name in ("a-vf", "b-node", "b-vf"):
        assert fabric.table(name) == {DEFAULT_LIMITED}
    assert fabric.table("a-node") == {DEFAULT_LIMITED, A | 0x8000}


def test_an_out_of_band_edit_shows_in_the_report_and_the_next_pass_restores_it(fabric, portal, tmp_path):
    """Someone puts B's node into A's partition by hand: the fabric shows it, the agent reverts it."""
    agent_pass(fabric, portal, two_tenants(fabric, 3), tmp_path)
    edited = fabric.partitions.read_text().replace(
        "0x0012, ipoib, mtu=4 :", f"0x0012, ipoib, mtu=4 :\n  {fabric.guids['b-node']}=full,"
    )
    fabric.partitions.write_text(edited)
    fabric.sm(tmp_path / "agent").reload()  # whoever edited it made OpenSM apply it
    degraded = isolation_errors(two_tenants(fabric, 3), fabric.tables(), {fabric.sm_guid})  # as a report says
    assert degraded == [f"port {fabric.guids['b-node']}: P_Key table has extra 0x8012, lacks none"]
    restored = agent_pass(fabric, portal, two_tenants(fabric, 3), tmp_path)
    assert any(e.startswith("drift:") for e in restored["errors"])
    assert fabric.table("b-node") == {DEFAULT_LIMITED, B | 0x8000}
    assert agent_pass(fabric, portal, two_tenants(fabric, 3), tmp_path)["errors"] == []


def test_opensm_restarted_keeps_every_table(fabric, portal, tmp_path):
    """OpenSM restarts from its partitions.conf: the same tables, also on a power-cycled fabric."""
    agent_pass(fabric, portal, two_tenants(fabric, 4), tmp_path)
    before = fabric.tables()
    fabric.restart_opensm()
    assert fabric.tables() == before
    fabric.power_cycle()  # every port back to ibsim's 0xffff, then OpenSM alone reprograms it
    assert fabric.tables() == before


def test_the_agent_refuses_a_bad_document_whole_and_keeps_the_applied_partitions(fabric, portal, tmp_path):
    """A GUID outside the grammar (an injection attempt), a port in two partitions, a shared port in a tenant's
    partition, an unknown schema: nothing applied."""
    agent_pass(fabric, portal, two_tenants(fabric, 5), tmp_path)
    conf, tables = fabric.partitions.read_text(), fabric.tables()
    injected = two_tenants(fabric, 6)
    injected["partitions"][0]["full"].append("0x0002c903a0000a01=full ; Default=0x7fff : ALL=full")
    two_partitions = document(fabric, 7, {A: ["a-node"], B: ["a-node"]})
    storage_in_a = document(fabric, 7, {A: ["a-node", "storage"]})  # full in 0x7fff: a bridge to every tenant
    for bad in (injected, two_partitions, storage_in_a, {"schema": 99}):
        report = agent_pass(fabric, portal, bad, tmp_path)
        assert report["errors"] and report["errors"][0].startswith("desired state refused")
        assert report["applied_generation"] == 5
        assert fabric.partitions.read_text() == conf
    assert fabric.tables() == tables


def test_the_report_states_the_subnet_managers_hardening(fabric, portal, tmp_path):
    """A default OpenSM (no M_Key, the shipped SM_Key) is reported unprotected; no foreign SM."""
    sm = agent_pass(fabric, portal, two_tenants(fabric, 8), tmp_path)["sm"]
    assert sm == {"kind": "opensm", "version": "3.3.23", "m_key": False, "m_key_protect": 0, "sm_key": False,
                  "foreign_sms": []}  # fmt: skip
    options = tmp_path / "hardened.conf"
    options.write_text("m_key 0x00000000deadbeef\nm_key_protection_level 2\nsm_key 0x000000000c0ffee5\n")
    realizer = fabric.sm(tmp_path / "agent")
    realizer.options = options
    hardened = {"m_key": True, "m_key_protect": 2, "sm_key": True, "foreign_sms": []}
    assert realizer.hardening() | {"version": None} == {"kind": "opensm", "version": None, **hardened}


def test_the_command_line_applies_a_document_from_a_file(fabric, tmp_path):
    """`enclave-fabric-agent apply --file` (break-glass, no portal) programs the fabric."""
    path = tmp_path / "desired.json"
    path.write_text(json.dumps(document(fabric, 9, {A: ["a-node", "b-vf"]})))
    files = ["--partitions", fabric.partitions, "--options", fabric.options, "--pidfile", fabric.pidfile]
    argv = [sys.executable, "-m", "enclave_agent.fabric.cli", "--config", tmp_path / "none.conf"]
    argv += ["--state-dir", tmp_path / "cli", *files, "apply", "--file", path]
    env = {**fabric.env, "PYTHONPATH": str(ROOT / "agent"), "PATH": "/usr/bin:/usr/sbin:/bin"}
    done = subprocess.run([str(a) for a in argv], env=env, capture_output=True, text=True, timeout=120)  # noqa: S603
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["errors"] == []
    assert fabric.table("b-vf") == {DEFAULT_LIMITED, A | 0x8000}


@pytest.mark.parametrize("name", ["a-node", "b-vf"])
def test_a_port_missing_from_the_fabric_is_an_error_in_the_report(fabric, portal, tmp_path, name):
    """A desired port the fabric lacks (VM off, cable out) is named, so the portal does not say Ready."""
    desired = two_tenants(fabric, 10)
    desired["partitions"][0]["full"].append("0x0002c903deadbe01")
    report = fabric.agent(tmp_path / "agent", settle=0).run_pass(desired)
    assert "port 0x0002c903deadbe01 is not on the fabric" in report["errors"]


def test_a_table_written_past_the_sm_is_degraded_then_reprogrammed_by_restarting_opensm(fabric, portal, tmp_path):
    """Root on B's node writes its port into A's partition with an SMP (no M_Key): OpenSM's sweeps keep
    it, the agent reports it, and on the second pass that sees it restarts OpenSM, which rewrites it."""
    agent_pass(fabric, portal, two_tenants(fabric, 11), tmp_path)
    fabric.rogue_write("b-node", [DEFAULT_FULL, A | 0x8000])
    assert fabric.table("b-node") == {DEFAULT_FULL, A | 0x8000}
    fabric.sm(tmp_path / "agent").reload()  # a heavy sweep does not undo it
    assert fabric.table("b-node") == {DEFAULT_FULL, A | 0x8000}
    watcher = fabric.agent(tmp_path / "agent")  # no restart command: report only
    for _ in range(2):
        assert (
            f"port {fabric.guids['b-node']}: P_Key table has extra 0x8012, 0xffff, lacks 0x7fff, 0x8013"
            in (watcher.run_pass(None)["errors"])
        )
    agent = fabric.agent(tmp_path / "agent", restart=True, reprogram_every=0)
    assert len(agent.run_pass(None)["errors"]) == 1  # the first pass only suspects it
    report = agent.run_pass(None)
    assert report["errors"] == [
        "drift: P_Key tables were changed on the fabric, not through the SM; it reprogrammed them"
    ]
    assert fabric.table("b-node") == {DEFAULT_LIMITED, B | 0x8000}


def _cli(fabric, tmp_path, *args):
    """Run `enclave-fabric-agent` as a separate process on this fabric's OpenSM."""
    files = ["--partitions", fabric.partitions, "--options", fabric.options, "--pidfile", fabric.pidfile]
    argv = [sys.executable, "-m", "enclave_agent.fabric.cli", "--config", tmp_path / "none.conf"]
    argv += ["--state-dir", tmp_path / "joined", *files, *args]
    env = {**fabric.env, "PYTHONPATH": str(ROOT / "agent"), "PATH": "/usr/bin:/usr/sbin:/bin"}
    return subprocess.run([str(a) for a in argv], env=env, capture_output=True, text=True, timeout=120)  # noqa: S603


def test_join_stores_the_credential_and_a_pass_reports_to_the_portal(fabric, portal, tmp_path):
    """`join` with the one-time token, then `once`: the credential file is 0600 and the report arrives."""
    portal.desired, portal.joined = two_tenants(fabric, 12), False
    joined = _cli(fabric, tmp_path, "join", "--server", portal.url, "--token", TOKEN)
    assert joined.returncode == 0, joined.stderr
    assert (tmp_path / "joined" / "credential.json").stat().st_mode & 0o777 == 0o600
    assert _cli(fabric, tmp_path, "join", "--server", portal.url, "--token", TOKEN).returncode != 0  # once only
    once = _cli(fabric, tmp_path, "once")
    assert once.returncode == 0, once.stderr
    assert portal.reports[-1]["applied_generation"] == 12 and portal.reports[-1]["errors"] == []


def test_an_unchanged_document_is_not_sent_again_and_the_pass_still_checks_the_fabric(fabric, portal, tmp_path):
    """The second GET carries If-None-Match and gets 304; the pass re-applies the last document."""
    portal.desired = two_tenants(fabric, 13)
    agent = fabric.agent(tmp_path / "agent")
    client = FabricClient(portal.url, "ib0", CREDENTIAL)
    first, etag = one_pass(agent, client, None)
    assert etag == '"13"'
    assert client.desired(etag) == (None, etag)
    agent.reporter.forget()
    second, _ = one_pass(agent, client, etag)
    assert second["applied_generation"] == 13 and second["errors"] == [] and second["ports"] == first["ports"]


def test_the_loop_passes_again_and_posts_only_news(fabric, portal, tmp_path):
    """Two passes of `run`'s loop on an unchanged document: the fabric checked twice, one report posted."""
    portal.desired, sent = two_tenants(fabric, 14), len(portal.reports)
    agent, passes = fabric.agent(tmp_path / "agent"), []
    original = agent.run_pass
    agent.run_pass = lambda *a: passes.append(1) or original(*a)
    loop(agent, FabricClient(portal.url, "ib0", CREDENTIAL), interval=0, stop=lambda: len(passes) >= 2)
    assert len(passes) == 2
    assert len(portal.reports) == sent + 1 and portal.reports[-1]["applied_generation"] == 14


def test_another_sm_on_the_fabric_is_reported(tmp_path):
    """Someone runs an SM on their node (at priority 0 it stays standby: this one has the lower GUID): the
    report lists it, from the SA's SMInfoRecords and the port's IsSM capability. (At a higher priority it
    may take the subnet over: the next test shows what the report says then.)"""
    with SimFabric(tmp_path / "fabric", {"a": None, "rogue": None}) as fab:
        agent = fab.agent(tmp_path / "agent")
        desired = parse_desired({"schema": 1, "generation": 1, "fabric": "ib0", "kind": "opensm",
                                 "partitions": [{"pkey": "0x0012", "full": [fab.guids["a"]]}]})  # fmt: skip
        assert agent.run_pass(desired)["sm"]["foreign_sms"] == []
        fab.start_other_sm("rogue", priority=0)
        assert fab.sm_state(fab.dir / "sm-rogue" / "opensm.log") == "STANDBY"
        report = agent.run_pass(None)
        assert report["sm"]["foreign_sms"] == [fab.guids["rogue"]] and report["errors"] == []


def test_an_agent_whose_host_is_not_the_master_sm_says_so(fabric, tmp_path):
    """The agent beside an OpenSM that is not the fabric's master (another SM won): every report says so."""
    elsewhere = Diags(env={**fabric.env, "SIM_HOST": "idle"})  # the tools on another host's port
    realizer = OpenSM(fabric.partitions, fabric.options, tmp_path, fabric.pidfile, elsewhere)
    report = FabricAgent(realizer, tmp_path, settle=0).run_pass(None)
    assert f"the fabric's master SM is {fabric.sm_guid}, not this host's ({fabric.guids['idle']})" in report["errors"]
