"""Firewall rules, groups and what-if in the browser's place: edits go through netpolicy.rules."""

import pytest

from netpolicy.models import FirewallPolicy, FirewallRule, Group, Service
from tests.netpolicy.test_netpolicy_db_forms import field_errors, login, writes

pytestmark = pytest.mark.django_db


def tenant_policy(world, tenant="a"):
    return FirewallPolicy.objects.get(tenant=getattr(world, f"tenant_{tenant}"), name="isolation")


def group(world, name, tenant="a"):
    return Group.objects.get(tenant=getattr(world, f"tenant_{tenant}") if tenant else None, name=name)


def rule_post(world, **overrides) -> dict:
    every = group(world, "all")
    data = {
        "name": "mpi",
        "sequence": "50",
        "sources": [every.pk],
        "destinations": [every.pk],
        "services": [],
        "action": "allow",
        "direction": "in-out",
        "enabled": "on",
        "description": "",
    }
    data.update(overrides)
    return data


def test_an_owner_adds_a_rule_and_sees_its_lint_next_to_it(world, client):
    policy = tenant_policy(world)
    client = login(client, world.owner_a)
    response = client.post(
        f"/network/firewall/policies/{policy.pk}/rules/new/", rule_post(world, logged="on"), follow=True
    )
    rule = FirewallRule.objects.get(policy=policy, name="mpi")
    page = response.content.decode()
    assert response.redirect_chain[-1][0] == f"/network/firewall/#rule-{rule.pk}"
    assert "lint: redundant" in page  # intra_tenant already allows all to all
    row = page.split(f'id="rule-{rule.pk}"')[1].split("</tr>")[0]
    assert ">redundant<" in row and "intra_tenant" in row
    assert rule.logged and rule.enabled and rule.sequence == 50


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"sources": []}, "sources", "ANY would open the tenant"),
        ({"destinations": ["SITE:nfs_servers"]}, "destinations", "site groups: drop and reject rules only"),
        ({"sources": ["B:all"]}, "sources", "Unknown group"),
        ({"sequence": "10"}, "sequence", "already used by rule &#x27;intra_tenant&#x27;"),
        ({"name": ""}, "name", "This field is required"),
    ],
)
def test_an_owners_bad_rule_is_refused_inline_and_writes_nothing(world, client, overrides, field, message):
    names = {"SITE:nfs_servers": group(world, "nfs_servers", None).pk, "B:all": group(world, "all", "b").pk}
    overrides = {k: [names.get(v, v) for v in val] if isinstance(val, list) else val for k, val in overrides.items()}
    policy = tenant_policy(world)
    before = writes()
    html = (
        login(client, world.owner_a)
        .post(f"/network/firewall/policies/{policy.pk}/rules/new/", rule_post(world, **overrides))
        .content.decode()
    )
    assert message in field_errors(html, field)
    assert writes() == before


def test_an_admin_is_not_offered_another_tenants_groups_in_a_tenants_rule(world, client):
    policy = tenant_policy(world)
    before = writes()
    html = (
        login(client, world.admin)
        .post(
            f"/network/firewall/policies/{policy.pk}/rules/new/",
            rule_post(world, sources=[group(world, "all", "b").pk]),
        )
        .content.decode()
    )
    assert "Unknown group" in field_errors(html, "sources")
    assert writes() == before


def test_members_and_other_tenants_cannot_edit_rules(world, client):
    policy, rule = tenant_policy(world), tenant_policy(world).rules.get(name="intra_tenant")
    client = login(client, world.member_a)
    refused = client.get(f"/network/firewall/policies/{policy.pk}/rules/new/")
    assert refused.status_code == 403 and "Only a tenant owner" in refused.content.decode()
    assert client.post(f"/network/firewall/rules/{rule.pk}/", rule_post(world)).status_code == 403
    assert client.post(f"/network/firewall/rules/{rule.pk}/move/", {"direction": "down"}).status_code == 403
    client = login(client, world.owner_b)
    assert client.get(f"/network/firewall/policies/{policy.pk}/rules/new/").status_code == 404
    assert client.get(f"/network/firewall/rules/{rule.pk}/").status_code == 404
    assert client.post(f"/network/firewall/rules/{rule.pk}/move/", {"direction": "down"}).status_code == 404
    assert FirewallRule.objects.get(pk=rule.pk).sequence == 10


def test_an_owner_cannot_edit_site_rules_but_an_admin_can(world, client):
    site = FirewallPolicy.objects.get(tenant__isnull=True, name="site_base")
    rule = site.rules.get(name="allow_icmp")
    refused = login(client, world.owner_a).get(f"/network/firewall/rules/{rule.pk}/")
    assert refused.status_code == 403
    assert "Only site admins edit site-wide policy objects." in refused.content.decode()
    client = login(client, world.admin)
    client.post(
        f"/network/firewall/rules/{rule.pk}/",
        {
            "name": "allow_icmp",
            "sequence": "10",
            "services": [Service.objects.get(name="icmp").pk],
            "action": "allow",
            "direction": "in-out",
            "logged": "on",
            "enabled": "on",
        },
    )
    assert FirewallRule.objects.get(pk=rule.pk).logged


def test_editing_a_rule_keeps_its_id_and_records_before_and_after(world, client):
    from audit.models import AuditEvent

    rule = tenant_policy(world).rules.get(name="tenant_to_dns")
    data = rule_post(
        world, name="tenant_to_dns", sequence="45", action="reject", destinations=[group(world, "dns_servers", None).pk]
    )
    login(client, world.owner_a).post(f"/network/firewall/rules/{rule.pk}/", data)
    rule.refresh_from_db()
    assert (rule.sequence, rule.action) == (45, "reject")
    event = AuditEvent.objects.filter(action="firewall_rule.update", object_id=str(rule.pk)).last()
    assert (event.before["sequence"], event.after["sequence"]) == (40, 45)
    assert event.before["action"] == "allow"


def test_moving_a_rule_swaps_sequence_numbers_and_keeps_ids(world, client):
    policy = tenant_policy(world)
    ids = {r.name: r.pk for r in policy.rules.all()}
    client = login(client, world.owner_a)
    client.post(f"/network/firewall/rules/{ids['tenant_to_nfs']}/move/", {"direction": "up"})
    order = list(policy.rules.order_by("sequence").values_list("name", "sequence", "pk"))
    assert order[1:3] == [("tenant_to_nfs", 20, ids["tenant_to_nfs"]), ("ssh_to_login", 30, ids["ssh_to_login"])]
    page = client.post(
        f"/network/firewall/rules/{ids['intra_tenant']}/move/", {"direction": "up"}, follow=True
    ).content.decode()
    assert "already the first rule of its policy" in page
    page = client.get("/network/firewall/").content.decode()
    assert page.index(f'id="rule-{ids["tenant_to_nfs"]}"') < page.index(f'id="rule-{ids["ssh_to_login"]}"')


def test_nfs_servers_come_from_the_site_settings_and_are_never_typed_into_the_group(world, client):
    from netpolicy import site

    nfs = group(world, "nfs_servers", None)
    client = login(client, world.admin)
    for bad, message in (
        ("10.255.0.10/33", "is not a network"),
        ("10.255.0.10/24", "has host bits set"),
        ("10.255.0.10/32", "holds the site settings&#x27; nfs servers"),
    ):
        before = writes()
        html = client.post(f"/network/firewall/groups/{nfs.pk}/", {"cidrs": bad}).content.decode()
        assert message in field_errors(html, "cidrs")
        assert writes() == before
    site.update_settings(world.admin, {"nfs_servers": ["10.255.0.10", "fd00:ff::10"]})
    page = client.get(f"/network/firewall/groups/{nfs.pk}/").content.decode()
    assert "<code>10.255.0.10/32</code>, <code>fd00:ff::10/128</code>" in page
    assert group(world, "nfs_servers", None).cidrs == []
    answer = client.post(
        "/network/firewall/what-if/",
        {"source": "10.64.0.5", "destination": "10.255.0.10", "protocol": "tcp", "port": "2049"},
        HTTP_HX_REQUEST="true",
    ).content.decode()
    assert "what-if-answer" in answer and "<html" not in answer


def test_an_owner_cannot_type_addresses_into_the_login_group_nor_open_site_groups(world, client):
    client = login(client, world.owner_a)
    login_group = group(world, "login")
    html = client.post(f"/network/firewall/groups/{login_group.pk}/", {"cidrs": "10.64.0.10/32"}).content.decode()
    assert "holds the addresses of the tenant&#x27;s login node VMs" in field_errors(html, "cidrs")
    assert group(world, "login").cidrs == []
    refused = client.get(f"/network/firewall/groups/{group(world, 'dns_servers', None).pk}/")
    assert refused.status_code == 403
    assert login(client, world.member_a).get(f"/network/firewall/groups/{login_group.pk}/").status_code == 403
    assert login(client, world.owner_b).get(f"/network/firewall/groups/{login_group.pk}/").status_code == 404


def test_what_if_names_the_deciding_rule_with_and_without_htmx(world, client):
    client = login(client, world.admin)  # a question about no tenant's addresses: site admins only
    ask = {"source": "192.0.2.1", "destination": "198.51.100.1", "protocol": "udp", "port": "67"}
    partial = client.post("/network/firewall/what-if/", ask, HTTP_HX_REQUEST="true")
    assert "allow_dhcp</strong></a> of site/site_base" in partial.content.decode()
    page = client.post("/network/firewall/what-if/", ask).content.decode()
    assert "<html" in page and "allow_dhcp</strong></a> of site/site_base" in page
    bad = client.post("/network/firewall/what-if/", {**ask, "port": "70000"}, HTTP_HX_REQUEST="true").content.decode()
    assert "port: Ensure this value is less than or equal to 65535." in bad
