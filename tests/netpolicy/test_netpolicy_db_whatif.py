"""What-if is no oracle: non-admins only learn about traffic of their own tenants."""

import pytest

from core.viewer_text import SITE_ADMIN
from netpolicy import ipam
from netpolicy.compiler import analysis
from netpolicy.ir import build_site_isolating
from netpolicy.models import Segment
from netpolicy.names import Names
from tenants import services
from tests.conftest import service_data
from tests.netpolicy.test_netpolicy_db_segments import make_pools
from tests.reads import reading

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_segments(world, api):
    """A's segment 10.64.0.0/24 with its login VM at .2 (the login group derives it), B's 10.64.1.0/24."""
    make_pools(world.admin)
    admin = api(world.admin)
    for tenant in (world.tenant_a, world.tenant_b):
        admin.post("/api/v1/segments/", {"tenant": tenant.pk, "name": "s", "kind": "vlan"}, format="json")
    cluster = services.create_cluster(world.tenant_a, world.owner_a, service_data())
    segment = Segment.objects.get(tenant=world.tenant_a)
    assert [a.address for a in ipam.reserve(cluster, segment, [("a-login", "login", "primary")])] == ["10.64.0.2"]
    assert sorted(Segment.objects.values_list("subnet", flat=True)) == ["10.64.0.0/24", "10.64.1.0/24"]


def ask(client, source, destination, port=22):
    return client.post("/api/v1/what-if/", {"source": source, "destination": destination, "protocol": "tcp",
                                            "port": port}, format="json")  # fmt: skip


def test_a_member_of_b_asking_about_traffic_into_a_is_refused_without_naming_a(world, api, two_segments):
    """Issue 8's reproduction: gus (genomics) asked about astro's login node and got astro's verdict."""
    response = ask(api(world.member_b), "192.0.2.7", "10.64.0.2")
    assert response.status_code == 403
    text = response.content.decode()
    assert "tenant-a" not in text and "Tenant A" not in text and "ssh_to_login" not in text


def test_the_refusal_is_the_same_for_another_tenants_address_and_an_unused_one(world, api, two_segments):
    client = api(world.member_b)
    assert ask(client, "192.0.2.7", "10.64.0.2").json() == ask(client, "192.0.2.7", "10.64.200.10").json()


def test_from_his_own_tenant_he_learns_only_his_side(world, api, two_segments):
    client = api(world.member_b)
    into_a = ask(client, "10.64.1.5", "10.64.0.2")
    nowhere = ask(client, "10.64.1.5", "10.64.200.10")
    assert into_a.status_code == 200
    assert into_a.json() == nowhere.json()  # A's existence, rules and verdict make no difference
    body = into_a.json()
    assert body["where"] == "egress from tenant tenant-b" and "destination" in body["note"]
    assert "tenant-a" not in into_a.content.decode()


def test_traffic_into_his_own_tenant_is_answered_at_his_ingress(world, api, two_segments):
    body = ask(api(world.member_b), "10.64.0.2", "10.64.1.5").json()
    assert body["where"] == "ingress to tenant tenant-b" and "source" in body["note"]
    assert "tenant-a" not in str(body)


def test_a_site_admin_gets_the_whole_answer(world, api, two_segments):
    body = ask(api(world.admin), "192.0.2.7", "10.64.0.2").json()
    assert (body["action"], body["where"], body["rule_name"]) == ("allow", "ingress to tenant tenant-a", "ssh_to_login")
    assert body["note"] == ""


def test_the_page_refuses_the_same_question_with_a_403(world, client, two_segments):
    client.force_login(world.member_b)
    response = client.post("/network/firewall/what-if/", {"source": "192.0.2.7", "destination": "10.64.0.2",
                                                          "protocol": "tcp", "port": "22"})  # fmt: skip
    assert response.status_code == 403 and "your own tenants" in response.content.decode()
    assert "tenant-a" not in response.content.decode()


def _rows_read(ask_it) -> int:
    with reading() as reads:
        assert ask_it().status_code == 200
    return reads.rows


def test_a_site_admins_question_reads_only_the_tenants_holding_its_addresses(world, api, two_segments):
    """Answered on the whole site it cost over 10 s a question at 10,000 tenants."""
    admin = api(world.admin)
    few = _rows_read(lambda: ask(admin, "192.0.2.7", "10.64.0.2"))
    for index in range(6):
        tenant = services.create_tenant(f"extra-{index}", f"Extra {index}", owner=world.owner_b)
        admin.post("/api/v1/segments/", {"tenant": tenant.pk, "name": "s", "kind": "vlan"}, format="json")
    assert _rows_read(lambda: ask(admin, "192.0.2.7", "10.64.0.2")) == few


@pytest.mark.parametrize("source, destination, port", [
    ("192.0.2.7", "10.64.0.2", 22), ("10.64.0.2", "10.64.1.5", 22), ("10.64.1.5", "10.64.0.2", 22),
    ("10.64.0.9", "10.64.0.2", 2049), ("10.64.1.5", "198.51.100.1", 53), ("192.0.2.7", "198.51.100.1", 80),
    ("10.64.0.2", "10.64.0.2", 443),
])  # fmt: skip
def test_a_site_admins_answer_is_the_one_the_whole_site_gives(world, api, two_segments, source, destination, port):
    whole = analysis.what_if(build_site_isolating().site, source, destination, "tcp", port)
    body = ask(api(world.admin), source, destination, port).json()
    rule = int(whole.rule[1:]) if whole.rule else None
    assert (body["action"], body["rule"]) == (whole.action.value, rule)
    assert body["where"] == Names([whole.where]).readable(whole.where, SITE_ADMIN)


def test_a_site_admins_question_with_a_bad_address_is_refused_with_it_named(world, api, two_segments):
    response = ask(api(world.admin), "10.64.0.2", "10.64.0.999")
    assert response.status_code == 400 and "10.64.0.999" in response.content.decode()
