"""The netpolicy API: default policy, owner limits, 404 across tenants, what-if, exports."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from audit.models import AuditEvent
from netpolicy.compiler.defaults import SEEDED_SERVICES
from netpolicy.models import Address, FirewallPolicy, FirewallRule, Group, Service
from netpolicy.policy import ensure_seeded_services
from tenants import services
from tests.conftest import service_data
from tests.netpolicy.builders import Netns
from tests.netpolicy.test_netpolicy_db_segments import make_pools

pytestmark = pytest.mark.django_db


def rule_body(policy, **overrides):
    body = {
        "policy": policy.pk,
        "name": "web",
        "sequence": 500,
        "sources": [],
        "destinations": [],
        "services": [],
        "action": "allow",
        "direction": "in",
    }
    body.update(overrides)
    return body


def own_group(tenant, name="all"):
    return Group.objects.get(tenant=tenant, name=name)


def isolation(tenant):
    return FirewallPolicy.objects.get(tenant=tenant, name="isolation")


def test_a_new_tenant_gets_the_default_isolation_policy(world):
    rules = FirewallRule.objects.filter(policy=isolation(world.tenant_a)).order_by("sequence")
    assert [r.name for r in rules] == ["intra_tenant", "ssh_to_login", "tenant_to_nfs", "tenant_to_dns"]
    site = FirewallPolicy.objects.filter(tenant__isnull=True).order_by("sequence")
    assert [p.name for p in site] == ["site_base", "site_default_deny"]
    assert {"ssh", "icmp", "dhcp", "dns_udp", "nfs_tcp", "slurm"} <= set(Service.objects.values_list("name", flat=True))
    assert AuditEvent.objects.filter(action="firewall_rule.create", tenant_id=world.tenant_a.pk).count() == 4


def _inserted_tables(queries) -> list[str]:
    return [q["sql"].split('"')[1] for q in queries if q["sql"].startswith("INSERT INTO")]


def test_a_tenants_default_objects_are_each_audited_and_written_in_one_insert_per_table(world):
    with CaptureQueriesContext(connection) as queries:
        tenant = services.create_tenant("tenant-c", "Tenant C", owner=world.owner_a)
    made = {
        "group.create": Group.objects.filter(tenant=tenant).count(),
        "firewall_policy.create": FirewallPolicy.objects.filter(tenant=tenant).count(),
        "firewall_rule.create": FirewallRule.objects.filter(policy__tenant=tenant).count(),
    }
    events = AuditEvent.objects.filter(tenant_id=tenant.pk, message="default policy")
    assert made == {"group.create": 2, "firewall_policy.create": 1, "firewall_rule.create": 4}
    assert {action: events.filter(action=action).count() for action in made} == made
    inserts = _inserted_tables(queries)
    for table in ("netpolicy_group", "netpolicy_firewallrule"):
        assert inserts.count(table) == 1, inserts  # the tenant's groups, and its rules, in one INSERT each
    # Events: the tenant's, its quota's and its owner's membership, then one INSERT each for the two groups,
    # the policy and the four rules (ten INSERTs when each default object wrote its own).
    assert inserts.count("audit_auditevent") == 6, inserts


def test_the_seeded_services_are_created_in_one_insert_each_audited(world):
    Service.objects.all().delete()  # the world's tenants made them; a fresh site makes them with its first
    with CaptureQueriesContext(connection) as queries:
        seeded = ensure_seeded_services()
    inserts = _inserted_tables(queries)
    assert inserts == ["netpolicy_service", "audit_auditevent"]
    events = AuditEvent.objects.filter(action="service.create", message="seeded", object_id__in=[
        str(s.pk) for s in seeded.values()])  # fmt: skip
    assert events.count() == len(seeded) == len(SEEDED_SERVICES)
    assert ensure_seeded_services() == seeded  # once made, found


def test_an_owner_adds_a_rule_inside_the_tenant(world, api):
    every = own_group(world.tenant_a)
    body = rule_body(isolation(world.tenant_a), sources=[every.pk], destinations=[every.pk])
    response = api(world.owner_a).post("/api/v1/firewall-rules/", body, format="json")
    assert response.status_code == 201, response.json()
    data = response.json()
    assert data["findings"][0]["kind"] == "redundant"
    assert "is redundant with tenant-a/isolation/'intra_tenant'" in data["findings"][0]["message"]
    event = AuditEvent.objects.get(action="firewall_rule.create", object_id=str(data["id"]))
    assert event.after["sources"] == [every.pk]


def test_an_owner_cannot_open_the_tenant_to_any_source(world, api):
    body = rule_body(isolation(world.tenant_a), destinations=[own_group(world.tenant_a).pk])
    response = api(world.owner_a).post("/api/v1/firewall-rules/", body, format="json")
    assert response.status_code == 400
    assert "ANY would open the tenant" in response.json()["sources"][0]


def test_a_rule_naming_another_tenants_group_is_refused(world, api):
    body = rule_body(
        isolation(world.tenant_a), sources=[own_group(world.tenant_b).pk], destinations=[own_group(world.tenant_a).pk]
    )
    before = FirewallRule.objects.count()
    response = api(world.owner_a).post("/api/v1/firewall-rules/", body, format="json")
    assert response.status_code == 400  # for tenant A's owner, B's group does not exist
    assert "does not exist" in response.json()["sources"][0]
    response = api(world.admin).post("/api/v1/firewall-rules/", body, format="json")
    assert response.status_code == 400
    assert "belongs to another tenant" in response.json()["sources"][0]
    assert FirewallRule.objects.count() == before


def test_an_owner_cannot_edit_site_policies(world, api):
    deny = FirewallPolicy.objects.get(name="site_default_deny")
    rule = deny.rules.get()
    response = api(world.owner_a).patch(f"/api/v1/firewall-rules/{rule.pk}/", {"action": "allow"}, format="json")
    assert response.status_code == 403
    assert response.json()["detail"] == "Only site admins edit site-wide policy objects."


def test_a_member_cannot_edit_the_tenant_policy(world, api):
    rule = isolation(world.tenant_a).rules.get(name="intra_tenant")
    response = api(world.member_a).patch(f"/api/v1/firewall-rules/{rule.pk}/", {"enabled": False}, format="json")
    assert response.status_code == 403


def test_another_tenants_rules_do_not_exist(world, api):
    rule = isolation(world.tenant_b).rules.get(name="intra_tenant")
    client = api(world.owner_a)
    assert client.get(f"/api/v1/firewall-rules/{rule.pk}/").status_code == 404
    assert client.patch(f"/api/v1/firewall-rules/{rule.pk}/", {"enabled": False}, format="json").status_code == 404
    names = {r["policy"] for r in client.get("/api/v1/firewall-rules/?limit=100").json()["results"]}
    assert isolation(world.tenant_b).pk not in names


def test_a_sequence_collision_is_a_clear_400(world, api):
    every = own_group(world.tenant_a)
    body = rule_body(isolation(world.tenant_a), sequence=10, sources=[every.pk], destinations=[every.pk])
    response = api(world.owner_a).post("/api/v1/firewall-rules/", body, format="json")
    assert response.status_code == 400
    assert response.json()["sequence"] == ["Sequence number 10 is already used by rule 'intra_tenant' in this policy."]


def test_reordering_keeps_the_rule_id(world, api):
    rule = isolation(world.tenant_a).rules.get(name="intra_tenant")
    response = api(world.owner_a).patch(f"/api/v1/firewall-rules/{rule.pk}/", {"sequence": 5}, format="json")
    assert response.status_code == 200 and response.json()["id"] == rule.pk
    assert FirewallRule.objects.get(pk=rule.pk).sequence == 5


def test_an_owner_cannot_change_a_rule_reaching_site_groups(world, api):
    rule = isolation(world.tenant_a).rules.get(name="tenant_to_dns")
    response = api(world.owner_a).patch(f"/api/v1/firewall-rules/{rule.pk}/", {"sequence": 5}, format="json")
    assert response.status_code == 400
    assert "site/dns_servers is a site group" in response.json()["destinations"][0]


@pytest.mark.parametrize("cidr", ["10.0.0.0/33", "10.0.0.1/24"])
def test_a_group_with_a_bad_cidr_is_refused(world, api, cidr):
    body = {"name": "bad", "tenant": world.tenant_a.pk, "cidrs": [cidr]}
    response = api(world.owner_a).post("/api/v1/groups/", body, format="json")
    assert response.status_code == 400 and "is not a network" in response.json()["cidrs"][0]


@pytest.mark.parametrize("ports", ["0", "70000", "9000-8000"])
def test_a_service_with_bad_ports_is_refused(world, api, ports):
    body = {"name": "bad", "protocol": "tcp", "ports": ports}
    response = api(world.admin).post("/api/v1/services/", body, format="json")
    assert response.status_code == 400 and "port" in response.json()["ports"][0]


def test_what_if_answers_with_the_deciding_rule(world, api):
    make_pools(world.admin)
    client = api(world.admin)
    seg = client.post(
        "/api/v1/segments/", {"tenant": world.tenant_a.pk, "name": "net", "kind": "vlan"}, format="json"
    ).json()
    assert seg["subnet"] == "10.64.0.0/24"
    refused = client.patch(f"/api/v1/groups/{own_group(world.tenant_a, 'login').pk}/", {"cidrs": ["10.64.0.10/32"]},
                           format="json")  # fmt: skip
    assert refused.status_code == 400 and "cannot be edited by hand" in refused.json()["cidrs"][0]
    cluster = services.create_cluster(world.tenant_a, world.owner_a, service_data())
    Address.objects.create(segment_id=seg["id"], address="10.64.0.10", cluster=cluster, node_name="mpi-login",
                           role="login")  # what approval's IPAM does for a login VM  # fmt: skip
    ask = {"source": "192.0.2.7", "destination": "10.64.0.10", "protocol": "tcp", "port": 22}
    assert client.post("/api/v1/what-if/", ask, format="json").json()["rule_name"] == ("ssh_to_login")
    denied = client.post("/api/v1/what-if/", dict(ask, port=80), format="json").json()
    assert (denied["action"], denied["rule_name"]) == ("reject", "reject_all")


def test_segment_api_refuses_vlan_0_and_4095(world, api):
    make_pools(world.admin)
    for vlan in (0, 4095):
        response = api(world.admin).post(
            "/api/v1/segments/",
            {"tenant": world.tenant_a.pk, "name": "s", "kind": "vlan", "vlan_id": vlan},
            format="json",
        )
        assert response.status_code == 400 and "vlan_id" in response.json()


def test_a_segment_of_another_tenant_is_404(world, api):
    make_pools(world.admin)
    seg = (
        api(world.admin)
        .post("/api/v1/segments/", {"tenant": world.tenant_b.pk, "name": "s", "kind": "vlan"}, format="json")
        .json()
    )
    assert api(world.owner_a).get(f"/api/v1/segments/{seg['id']}/").status_code == 404


def test_the_nft_export_passes_nft_check(world, api, tmp_path):
    make_pools(world.admin)
    api(world.admin).post(
        "/api/v1/segments/", {"tenant": world.tenant_a.pk, "name": "s", "kind": "vlan"}, format="json"
    )
    response = api(world.admin).get("/api/v1/exports/nft/")
    assert response.status_code == 200
    path = tmp_path / "enclave.nft"
    path.write_bytes(response.content)
    ns = Netns("npapi")
    try:
        result = ns.run("nft", "-c", "-f", str(path), check=False)
    finally:
        ns.close()
    assert result.returncode == 0, result.stderr


def test_the_nsx_export_is_for_site_admins_only(world, api):
    assert api(world.owner_a).get("/api/v1/exports/nsx/").status_code == 404
    body = api(world.admin).get("/api/v1/exports/nsx/").json()
    assert body["resource_type"] == "Infra"


def test_the_rule_list_shows_each_rules_members_as_its_own_page_does(world, api):
    """The list reads a page's member ids in one query per relation: same ids, same order as the detail."""
    zeta = Group.objects.create(tenant=world.tenant_a, name="zeta", cidrs=["10.9.1.0/24"])
    alpha = Group.objects.create(tenant=world.tenant_a, name="alpha", cidrs=["10.9.2.0/24"])
    site = Group.objects.create(tenant=None, name="campus", cidrs=["192.0.2.0/24"])
    wanted = list(Service.objects.order_by("-name")[:3])
    body = rule_body(isolation(world.tenant_a), sources=[zeta.pk, site.pk, alpha.pk], destinations=[alpha.pk, zeta.pk],
                     services=[s.pk for s in wanted])  # fmt: skip
    assert api(world.admin).post("/api/v1/firewall-rules/", body, format="json").status_code == 201
    for user in (world.admin, world.owner_a):
        listed = api(user).get(f"/api/v1/firewall-rules/?policy={isolation(world.tenant_a).pk}").json()["results"]
        assert len(listed) == 5
        for rule in listed:
            assert api(user).get(f"/api/v1/firewall-rules/{rule['id']}/").json() == rule
        web = next(r for r in listed if r["name"] == "web")
        assert web["sources"] == [alpha.pk, zeta.pk, site.pk]  # tenant groups by name, then the site's
        assert web["services"] == sorted(web["services"], key=lambda pk: Service.objects.get(pk=pk).name)
