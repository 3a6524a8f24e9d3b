"""Everything a node's document is built from passes the agent's grammar at input; bad input is a 4xx."""

import pytest
from django.core.management import CommandError, call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents import services
from agents.models import JoinToken, Node
from agents.serializers import InterfaceSerializer
from audit.models import AuditEvent
from tests.test_agents_api import IFACES, agent, enrol

pytestmark = pytest.mark.django_db

INJECTIONS = [
    {"name": "eth0\nlink del lo", "address": "10.10.0.5/24"},
    {"name": "em1", "address": "10.10.0.5/24\nlink del lo"},
    {"name": "em1", "address": "10.10.0.5/24", "gateway": "10.10.0.1 dev lo"},
    {"name": "em1", "address": "2001:db8::%a b\nzz/128"},
    {"name": "em1", "address": "fe80::1%lo/64"},
    {"name": "em1", "address": "10.10.0.5/255.255.255.0"},
    {"name": "a-name-over-15-chars", "address": "10.10.0.5/24"},
    {"name": "dev", "address": "10.10.0.5/24"},
    {"name": "em1#", "address": "10.10.0.5/24"},
    {"name": 7, "address": "10.10.0.5/24"},
    {"name": "em1", "address": 167772165},
    {"name": "em1"},
    {"address": "10.10.0.5/24"},
    {"name": "em1", "address": "10.10.0.5/24", "mtu": "9000\nlink del lo"},
    {"name": "em1", "address": "2001:db8::5/64", "gateway": "10.10.0.1"},
    "em1=10.10.0.5/24",
]


@pytest.fixture
def pool(db):
    pool = services.create_pool("rack-1")
    services.add_subnet(pool, "10.10.0.0/24", 4790)
    return pool


@pytest.mark.parametrize("iface", INJECTIONS)
def test_an_admin_patch_with_an_unsafe_interface_is_refused_and_the_document_unchanged(pool, api, world, iface):
    node, cred = enrol(pool)
    before = agent(cred).get("/api/v1/agents/node-1/desired-state").json()
    response = api(world.admin).patch(f"/api/v1/nodes/{node.pk}/", {"interfaces": [iface]}, format="json")
    assert response.status_code == 400, response.content
    assert "interfaces" in response.json()
    node.refresh_from_db()
    assert node.interfaces == [IFACES[0] | {"gateway": None}]
    assert agent(cred).get("/api/v1/agents/node-1/desired-state").json() == before


@pytest.mark.parametrize("address", ["10.10.0.5\n", "10.10.0.5 dev lo", "fe80::1%lo", "::ffff:10.10.0.5", "010.10.0.5"])
def test_an_admin_patch_with_an_unsafe_node_address_is_refused(pool, api, world, address):
    node, _ = enrol(pool)
    response = api(world.admin).patch(f"/api/v1/nodes/{node.pk}/", {"address": address}, format="json")
    assert response.status_code == 400, response.content
    node.refresh_from_db()
    assert node.address == "10.10.0.5"


def test_an_admin_patch_with_duplicate_interface_names_is_refused(pool, api, world):
    node, _ = enrol(pool)
    twice = [IFACES[0], IFACES[0] | {"address": "10.10.0.6/24"}]
    response = api(world.admin).patch(f"/api/v1/nodes/{node.pk}/", {"interfaces": twice}, format="json")
    assert response.status_code == 400 and "twice" in str(response.json())


def test_a_valid_admin_patch_is_stored_in_canonical_form_and_audited(pool, api, world):
    node, cred = enrol(pool)
    body = {"interfaces": [{"name": "em1", "address": "10.10.0.7/24", "gateway": "10.10.0.1"}]}
    assert api(world.admin).patch(f"/api/v1/nodes/{node.pk}/", body, format="json").status_code == 200
    node.refresh_from_db()
    assert node.interfaces == body["interfaces"]
    assert AuditEvent.objects.filter(action="node.update", object_id=str(node.pk)).exists()


@pytest.mark.parametrize("iface", INJECTIONS)
def test_a_join_with_unsafe_interfaces_is_a_400_and_leaves_the_token_unused(pool, iface):
    token, raw = services.create_join_token(pool)
    body = {"token": raw, "hostname": "node-1", "interfaces": [iface]}
    response = agent().post("/api/v1/agents/join", body, format="json")
    assert response.status_code == 400, response.content
    assert not Node.objects.filter(name="node-1").exists()
    assert JoinToken.objects.get(pk=token.pk).used_at is None
    fixed = agent().post("/api/v1/agents/join", body | {"interfaces": IFACES}, format="json")
    assert fixed.status_code == 201  # nothing half-written: the same token still works


@pytest.mark.parametrize("body", [
    {"interfaces": [{"name": "em1"}]},  # a join without an address (500 before)
    {"interfaces": [IFACES[0], IFACES[0]]},
    {"interfaces": {"name": "em1"}},
    {"interfaces": [None]},
    {"interfaces": [IFACES[0]] * 65},
    {"capabilities": {"vrf": "yes please", "kernel": 6}},
    {"capabilities": {"vrf": True, "kernel": "x" * 5000}},
    {"capabilities": {"unknown": True}},
    {"capabilities": []},
    {"hostname": "node-1\n"},
    {"hostname": "../node"},
    {"token": ["encj_x"]},
])  # fmt: skip
def test_join_bodies_that_broke_the_server_are_clear_400s(pool, body):
    token, raw = services.create_join_token(pool)
    response = agent().post("/api/v1/agents/join", {"token": raw, "hostname": "node-1"} | body, format="json")
    assert response.status_code == 400, response.content
    assert JoinToken.objects.get(pk=token.pk).used_at is None and not Node.objects.exists()


@pytest.mark.parametrize("item", ["eth0\nlink del lo=10.0.0.5/24", "em1=10.0.0.5/24 dev lo", "em1=fe80::1%lo/64",
                                  "em1=10.0.0.5"])  # fmt: skip
def test_the_node_interfaces_command_refuses_unsafe_input(pool, item):
    node, _ = enrol(pool)
    with pytest.raises(CommandError):
        call_command("node_interfaces", "node-1", item)
    node.refresh_from_db()
    assert node.interfaces == [IFACES[0] | {"gateway": None}]


def test_the_node_interfaces_command_sets_valid_interfaces(pool):
    enrol(pool)
    call_command("node_interfaces", "node-1", "em1=10.10.0.9/24", "ib0=10.20.0.9/16")
    assert [i["name"] for i in Node.objects.get(name="node-1").interfaces] == ["em1", "ib0"]


@pytest.mark.parametrize("data", [
    {"name": "p2", "multicast_group": "239.1.1.1\n"}, {"name": "p2", "multicast_group": "10.0.0.1"},
    {"name": "p2", "multicast_group": "ff05::1"}, {"name": "p2", "multicast_group": "239.001.1.1"},
])  # fmt: skip
def test_node_pools_refuse_unsafe_multicast_groups(api, world, data):
    assert api(world.admin).post("/api/v1/node-pools/", data, format="json").status_code == 400


@pytest.mark.parametrize("cidr", ["10.0.0.0/8\n", "fe80::%eth0/64", "10.0.0.1/24", "10.0.0.0/08", "10.0.0.0 /8",
                                  "10.0.0.0/255.0.0.0"])  # fmt: skip
def test_pool_subnets_refuse_anything_but_a_canonical_network(pool, api, world, cidr):
    response = api(world.admin).post("/api/v1/pool-subnets/", {"pool": pool.pk, "cidr": cidr, "dstport": 4791},
                                     format="json")  # fmt: skip
    assert response.status_code == 400, response.content


def test_services_refuse_unsafe_values_from_any_caller(pool):
    from core.errors import InvalidRequest

    node, _ = enrol(pool)
    with pytest.raises(InvalidRequest):
        services.update_node(node, interfaces=[INJECTIONS[0]])
    with pytest.raises(InvalidRequest):
        services.update_node(node, name="renamed")  # not an editable field
    with pytest.raises(InvalidRequest):
        services.add_subnet(pool, "10.0.0.0/8\n", 4800)
    with pytest.raises(InvalidRequest):
        services.create_pool("p3", multicast_group="239.1.1.1 dev lo")
    _, raw = services.create_join_token(pool)
    with pytest.raises(InvalidRequest):
        services.join(raw, "node-2", {}, [INJECTIONS[0]])
    with pytest.raises(InvalidRequest):
        services.create_join_token(pool, "node-2\n")  # a RegexValidator's `$` would let this through
    with pytest.raises(CommandError):
        call_command("join_token", "rack-1", "--node", "node-2\n")


interfaces = st.fixed_dictionaries(
    {"name": st.text(max_size=20), "address": st.text(max_size=45)},
    optional={"gateway": st.none() | st.text(max_size=20)},
) | st.fixed_dictionaries(
    {
        "name": st.sampled_from(["em1", "ib0"]),
        "address": st.ip_addresses().map(str).map(lambda a: a + ("/24" if ":" not in a else "/64")),
    }
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(interfaces, max_size=3))
def test_whatever_the_interface_serializer_accepts_the_agent_accepts(items):
    from enclave_agent import grammar

    serializer = InterfaceSerializer(data=items, many=True)
    if serializer.is_valid():
        assert grammar.interfaces([dict(i) for i in serializer.validated_data]) == serializer.validated_data


# -- a node's per-tenant report: one pass, the serializer's rules ---------------------------------

_TEXT = st.one_of(st.sampled_from(["ready", "failed", "blocked", "pending", "", "x" * 2001, "a\x00b", "\ud800"]),
                  st.text(max_size=30))  # fmt: skip
_REPORT = st.one_of(
    st.fixed_dictionaries({"status": _TEXT}, optional={"errors": st.lists(_TEXT, max_size=3)}),
    st.dictionaries(st.sampled_from(["status", "errors", "extra"]), st.one_of(_TEXT, st.integers(), st.none(),
                                                                              st.lists(st.integers(), max_size=2))),
    st.none(), st.integers(), st.lists(_TEXT, max_size=2), _TEXT,
)  # fmt: skip


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(report=_REPORT)
def test_a_tenants_report_is_accepted_by_the_one_pass_check_only_where_its_serializer_accepts_it(report):
    from agents.serializers import TenantReportSerializer, _tenant_report_problem

    fast_ok = _tenant_report_problem(report) is None
    slow_ok = TenantReportSerializer(data=report).is_valid()
    assert fast_ok <= slow_ok  # never more lenient
    errors = report.get("errors", []) if isinstance(report, dict) else None
    if isinstance(errors, list) and all(isinstance(e, str) for e in errors) and isinstance(report.get("status"), str):
        assert fast_ok == slow_ok  # and as lenient for what agents send (the serializer also takes numbers)


def test_a_report_of_every_tenant_of_a_large_pool_is_checked_quickly():
    import time

    from agents.serializers import ObservedStateSerializer

    tenants = {str(k): {"status": "ready", "errors": []} for k in range(1, 1001)}
    tenants["7"] = {"status": "failed", "errors": ["vrf: no such device"]}
    start = time.perf_counter()
    serializer = ObservedStateSerializer(data={"generation": 3, "tenants": tenants})
    assert serializer.is_valid(), serializer.errors
    assert time.perf_counter() - start < 0.05  # ~2 ms; a serializer per tenant took ~90 ms
    assert serializer.validated_data["tenants"]["7"] == {"status": "failed", "errors": ["vrf: no such device"]}
    tenants["8"] = {"status": "ready", "errors": [""]}
    refused = ObservedStateSerializer(data={"generation": 3, "tenants": tenants})
    assert not refused.is_valid() and "8" in refused.errors["tenants"]
