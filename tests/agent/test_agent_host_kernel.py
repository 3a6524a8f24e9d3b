"""The agent on this machine's kernel, which has no VRF: it must say so and fail closed."""

import json

import pytest
from enclave_agent import kernel
from topo import PY, agent, desired, report

pytestmark = pytest.mark.skipif(kernel.probe().vrf, reason="this kernel has VRF; see guest/")


def test_it_reports_missing_vrf_and_builds_no_tenant_network(topo):
    out = agent(topo, "n1", desired("n1", 1, [70001]))
    rep = report(out)
    assert out.returncode == 1
    assert rep["capabilities"]["vrf"] is False and "Unknown device type" in rep["capabilities"]["detail"]
    assert rep["tenants"]["70001"]["status"] == "not_ready"
    assert "CONFIG_NET_VRF" in rep["tenants"]["70001"]["errors"][0]
    assert "lacks VRF support" in out.stderr  # said clearly at start, too
    links = json.loads(topo.ex("n1", "ip", "-j", "link", "show", "group", "4242").stdout)
    assert [x for x in links if "ifname" in x] == []


def test_it_still_applies_the_firewall_in_one_transaction_and_reapplies_nothing(topo):
    topo.ex("n1", "nft", "add", "table", "inet", "other")
    agent(topo, "n1", desired("n1", 1, [70001]))
    tables = topo.ex("n1", "nft", "list", "tables").stdout.split("\n")
    assert sorted(t for t in tables if t) == ["table inet enclave", "table inet enclave_agent", "table inet other"]
    assert report(agent(topo, "n1", desired("n1", 1, [70001])))["ops"] == 0


def test_firewall_blocks_the_outside_except_ssh_on_the_login_node(topo):
    agent(topo, "n1", desired("n1", 1, [70001]))
    topo.listen("n1", 22)
    topo.listen("n1", 8081)
    assert topo.connect("out", "10.77.0.1", 22).startswith("echo:hi")
    assert topo.connect("out", "10.77.0.1", 8081) == ""


def test_enter_refuses_the_session_when_the_tenant_network_is_not_ready(topo):
    agent(topo, "n1", desired("n1", 1, [70001], uids={70001: [65534]}))
    out = agent(topo, "n1", {}, "enter", "--uid", "65534", "--", "true")
    assert out.returncode == 1
    assert "session refused: tenant 70001 network is not ready" in out.stderr


def test_teardown_leaves_foreign_tables_alone(topo):
    topo.ex("n1", "nft", "add", "table", "inet", "other")
    agent(topo, "n1", desired("n1", 1, [70001]))
    assert agent(topo, "n1", {}, "teardown").returncode == 0
    assert topo.ex("n1", "nft", "list", "tables").stdout.strip() == "table inet other"


def test_capabilities_command_exits_nonzero_without_vrf(topo):
    out = topo.ex("n1", PY, "-m", "enclave_agent.cli", "capabilities", check=False)
    assert out.returncode == 2 and json.loads(out.stdout)["vrf"] is False


def test_an_aborted_batch_is_retried_tenant_by_tenant(topo):
    """`ip -batch` exits on some errors without naming the line; isolation recovers."""
    from enclave_agent.plan import Op, OpKind

    def op(tid, line):
        return Op(OpKind.CREATE, tid, ip=(line,))

    ops = [
        op(1, "link add ab1 group 4242 type veth peer name ab1p"),
        op(2, "link add ab2 group 4242 type vxlan id 2 dstport 4789 dev nosuchdev"),
        op(3, "link add ab3 group 4242 type veth peer name ab3p"),
    ]
    code = (
        "import json, sys; from enclave_agent import kernel; from enclave_agent.plan import "
        "Op, OpKind; ops = [Op(OpKind.CREATE, t, ip=(l,)) for t, l in json.load(sys.stdin)];"
        "r = kernel.apply(ops, isolate=len(sys.argv) > 1); print(json.dumps([r.aborted, "
        "sorted(r.tenant_errors)]))"
    )
    data = json.dumps([(o.tenant, o.ip[0]) for o in ops])
    first = json.loads(topo.ex("n1", PY, "-c", code, input=data).stdout)
    assert first == [True, []]  # the plain batch stopped at tenant 2, tenant 3 never ran
    assert "ab3" not in topo.ex("n1", "ip", "-br", "link").stdout
    rest = json.dumps([(o.tenant, o.ip[0]) for o in ops[1:]])
    second = json.loads(topo.ex("n1", PY, "-c", code, "isolate", input=rest).stdout)
    assert second == [False, [2]]
    assert "ab3" in topo.ex("n1", "ip", "-br", "link").stdout
