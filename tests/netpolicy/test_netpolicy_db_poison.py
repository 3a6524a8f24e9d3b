"""A write that would break the compiled policy is refused; a policy broken anyway never takes reads down."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from netpolicy.models import FirewallPolicy, FirewallRule, Group, Service
from tenants import services
from tests.netpolicy.builders import Netns
from tests.netpolicy.test_netpolicy_db_segments import make_pools
from tests.security.framework import assert_nothing_changed, assert_site_compiles, state_digest

pytestmark = pytest.mark.django_db


def test_a_service_patch_that_would_break_the_site_is_refused_with_the_compilers_message(world, api):
    dns = Service.objects.get(name="dns_udp")
    before = state_digest()
    response = api(world.admin).patch(f"/api/v1/services/{dns.pk}/", {"protocol": "icmp"}, format="json")
    assert response.status_code == 400
    assert "service dns_udp: ports only apply to tcp and udp" in response.json()["detail"]
    assert_nothing_changed(before)
    assert api(world.owner_a).get("/api/v1/firewall-rules/").status_code == 200


def test_a_service_change_that_compiles_is_accepted(world, api):
    dns = Service.objects.get(name="dns_udp")
    response = api(world.admin).patch(f"/api/v1/services/{dns.pk}/", {"protocol": "icmp", "ports": ""}, format="json")
    assert response.status_code == 200, response.json()
    assert_site_compiles()


def _break_the_site():
    """What a poisoning write left behind before writes were checked (or a hand edit of the database)."""
    Service.objects.filter(name="dns_udp").update(protocol="icmp")


def _break_tenant(tenant):
    Group.objects.filter(tenant=tenant, name="login").update(cidrs=["fe80::1%lo/128"])


def test_reads_answer_when_the_site_policy_is_broken(world, api, client):
    _break_the_site()
    client_a = api(world.owner_a)
    listing = client_a.get("/api/v1/firewall-rules/")
    assert listing.status_code == 200
    finding = listing.json()["results"][0]["findings"][0]
    assert finding["kind"] == "does-not-compile" and "ports only apply to tcp and udp" in finding["message"]
    rule = FirewallRule.objects.filter(policy__tenant=world.tenant_a).first()
    assert client_a.get(f"/api/v1/firewall-rules/{rule.pk}/").status_code == 200
    client.force_login(world.owner_a)
    page = client.get("/network/firewall/")
    assert page.status_code == 200 and "ports only apply to tcp and udp" in page.content.decode()
    for export in ("nft", "nsx"):
        response = api(world.admin).get(f"/api/v1/exports/{export}/")
        assert response.status_code == 409
        assert "site policy does not compile" in response.json()["detail"]


def test_one_broken_tenant_is_quarantined_and_the_others_read_normally(world, api, client, tmp_path):
    make_pools(world.admin)
    for tenant in (world.tenant_a, world.tenant_b):
        api(world.admin).post("/api/v1/segments/", {"tenant": tenant.pk, "name": "s", "kind": "vlan"}, format="json")
    _break_tenant(world.tenant_a)
    rules_b = api(world.owner_b).get("/api/v1/firewall-rules/?limit=100").json()["results"]
    assert all(f["kind"] != "does-not-compile" for r in rules_b for f in r["findings"])
    rules_a = api(world.owner_a).get("/api/v1/firewall-rules/?limit=100").json()["results"]
    own = [r for r in rules_a if r["policy"] == FirewallPolicy.objects.get(tenant=world.tenant_a).pk]
    assert own and all(r["findings"][0]["kind"] == "does-not-compile" for r in own)
    assert "tenant-a does not compile" in own[0]["findings"][0]["message"]
    client.force_login(world.owner_a)
    assert "nodes reject all of its traffic" in client.get("/network/firewall/").content.decode()
    response = api(world.admin).get("/api/v1/exports/nft/")
    assert response.status_code == 200 and response["X-Enclave-Quarantined"] == "tenant-a"
    text = response.content.decode()
    assert "quarantine" in text and "%" not in text
    path = tmp_path / "enclave.nft"
    path.write_text(text)
    ns = Netns("nppoison")
    try:
        assert ns.run("nft", "-c", "-f", str(path), check=False).returncode == 0
    finally:
        ns.close()


def test_a_write_to_a_broken_tenant_is_not_refused_for_what_it_did_not_break(world, api):
    """An owner repairing his tenant one step at a time is not blocked by the breakage he is repairing."""
    _break_tenant(world.tenant_a)
    group = Group.objects.get(tenant=world.tenant_a, name="all")
    response = api(world.owner_a).patch(f"/api/v1/groups/{group.pk}/", {"description": "step 1"}, format="json")
    assert response.status_code == 200
    login = Group.objects.get(tenant=world.tenant_a, name="login")
    response = api(world.owner_a).patch(f"/api/v1/groups/{login.pk}/", {"cidrs": []}, format="json")  # derived
    assert response.status_code == 200
    assert_site_compiles()


def test_what_if_answers_for_other_tenants_when_one_is_broken(world, api):
    make_pools(world.admin)
    api(world.admin).post("/api/v1/segments/", {"tenant": world.tenant_b.pk, "name": "s", "kind": "vlan"},
                          format="json")  # fmt: skip
    _break_tenant(world.tenant_a)
    ask = {"source": "192.0.2.7", "destination": "10.64.0.10", "protocol": "tcp", "port": 22}
    assert api(world.owner_b).post("/api/v1/what-if/", ask, format="json").status_code == 200


def _rule_list_queries(client) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/api/v1/firewall-rules/?limit=1000").status_code == 200
    return len(queries)


def test_the_rule_list_costs_the_same_queries_for_one_tenant_or_many(world, api):
    make_pools(world.admin)
    admin = api(world.admin)
    for tenant in (world.tenant_a, world.tenant_b):
        admin.post("/api/v1/segments/", {"tenant": tenant.pk, "name": "s", "kind": "vlan"}, format="json")
    few = _rule_list_queries(admin)
    for index in range(8):
        tenant = services.create_tenant(f"extra-{index}", f"Extra {index}", owner=world.owner_b)
        admin.post("/api/v1/segments/", {"tenant": tenant.pk, "name": "s", "kind": "vlan"}, format="json")
    many = _rule_list_queries(admin)
    assert many == few
    assert _rule_list_queries(api(world.owner_a)) == _rule_list_queries(api(world.owner_b))
