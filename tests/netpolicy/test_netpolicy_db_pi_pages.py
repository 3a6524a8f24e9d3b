"""Tenant owners manage their tenant's groups and rules on the firewall page, through the netpolicy services."""

import pytest

from audit.models import AuditEvent
from netpolicy.models import FirewallRule, Group
from tests.netpolicy.test_netpolicy_db_forms import field_errors, login, writes
from tests.netpolicy.test_netpolicy_db_rule_forms import group, rule_post, tenant_policy

pytestmark = pytest.mark.django_db


def new_group_url(world, tenant="a") -> str:
    return f"/network/firewall/tenants/{getattr(world, f'tenant_{tenant}').pk}/groups/new/"


def add_partners(world, client, cidrs="192.0.2.0/24") -> Group:
    login(client, world.owner_a).post(new_group_url(world), {"name": "partners", "cidrs": cidrs})
    return Group.objects.get(tenant=world.tenant_a, name="partners")


def test_an_owner_adds_a_partner_network_and_it_is_audited(world, client):
    response = login(client, world.owner_a).post(
        new_group_url(world),
        {"name": "partners", "cidrs": "192.0.2.0/24\n198.51.100.7/32", "description": "lab B"},
        follow=True,
    )
    partners = Group.objects.get(tenant=world.tenant_a, name="partners")
    assert partners.cidrs == ["192.0.2.0/24", "198.51.100.7/32"]
    assert "Group sec-a/partners created" in response.content.decode() or "created" in response.content.decode()
    assert AuditEvent.objects.filter(action="group.create", object_id=str(partners.pk)).exists()


def test_a_bad_address_or_name_is_refused_next_to_its_field_and_writes_nothing(world, client):
    before = writes()
    client = login(client, world.owner_a)
    html = client.post(new_group_url(world), {"name": "partners", "cidrs": "192.0.2.1/24"}).content.decode()
    assert "192.0.2.1/24" in field_errors(html, "cidrs")
    html = client.post(new_group_url(world), {"name": "Bad Name!", "cidrs": "192.0.2.0/24"}).content.decode()
    assert "Use a-z, 0-9" in field_errors(html, "name")
    html = client.post(new_group_url(world), {"name": "all", "cidrs": "192.0.2.0/24"}).content.decode()
    assert "already exists" in field_errors(html, "name")
    assert writes() == before


def test_members_cannot_add_groups_and_other_tenants_get_a_404(world, client):
    before = writes()
    assert login(client, world.member_a).get(new_group_url(world)).status_code == 403
    assert login(client, world.member_a).post(new_group_url(world), {"name": "x"}).status_code == 403
    assert login(client, world.owner_b).post(new_group_url(world), {"name": "x"}).status_code == 404
    assert writes() == before


def test_the_page_offers_add_and_delete_to_owners_only(world, client):
    partners = add_partners(world, client)
    owner_page = login(client, world.owner_a).get("/network/firewall/").content.decode()
    assert 'id="add-group"' in owner_page and f'id="delete-group-{partners.pk}"' in owner_page
    assert f'id="delete-group-{group(world, "all").pk}"' not in owner_page  # derived: follows intent
    member_page = login(client, world.member_a).get("/network/firewall/").content.decode()
    assert "partners" in member_page and 'id="add-group"' not in member_page
    assert "delete-group-" not in member_page and "delete-rule-" not in member_page


def test_an_owner_deletes_a_rule_after_confirming_and_the_delete_is_audited(world, client):
    partners = add_partners(world, client)
    client.post(
        f"/network/firewall/policies/{tenant_policy(world).pk}/rules/new/",
        rule_post(world, name="partner_ssh", sources=[partners.pk]),
    )
    rule = FirewallRule.objects.get(name="partner_ssh")
    confirm = client.get(f"/network/firewall/rules/{rule.pk}/delete/")
    assert confirm.status_code == 200 and "Delete rule" in confirm.content.decode()
    assert FirewallRule.objects.filter(pk=rule.pk).exists()  # a GET only asks
    client.post(f"/network/firewall/rules/{rule.pk}/delete/")
    assert not FirewallRule.objects.filter(pk=rule.pk).exists()
    assert AuditEvent.objects.filter(action="firewall_rule.delete", object_id=str(rule.pk)).exists()


def test_a_group_named_by_a_rule_is_kept_until_the_rule_is_gone(world, client):
    partners = add_partners(world, client)
    client.post(
        f"/network/firewall/policies/{tenant_policy(world).pk}/rules/new/",
        rule_post(world, name="partner_ssh", sources=[partners.pk]),
    )
    refused = client.post(f"/network/firewall/groups/{partners.pk}/delete/", follow=True)
    assert "used by rule(s) partner_ssh" in refused.content.decode()
    assert Group.objects.filter(pk=partners.pk).exists()
    client.post(f"/network/firewall/rules/{FirewallRule.objects.get(name='partner_ssh').pk}/delete/")
    client.post(f"/network/firewall/groups/{partners.pk}/delete/")
    assert not Group.objects.filter(pk=partners.pk).exists()
    assert AuditEvent.objects.filter(action="group.delete", object_id=str(partners.pk)).exists()


def test_derived_and_site_groups_cannot_be_deleted_by_owners(world, client):
    client = login(client, world.owner_a)
    client.post(f"/network/firewall/groups/{group(world, 'login').pk}/delete/")
    assert Group.objects.filter(pk=group(world, "login").pk).exists()
    assert client.post(f"/network/firewall/groups/{group(world, 'nfs_servers', None).pk}/delete/").status_code == 403


def test_members_cannot_delete_and_other_tenants_get_a_404(world, client):
    partners, rule = add_partners(world, client), tenant_policy(world).rules.get(name="intra_tenant")
    before = writes()
    for user, code in ((world.member_a, 403), (world.owner_b, 404)):
        client = login(client, user)
        assert client.get(f"/network/firewall/rules/{rule.pk}/delete/").status_code == code
        assert client.post(f"/network/firewall/rules/{rule.pk}/delete/").status_code == code
        assert client.post(f"/network/firewall/groups/{partners.pk}/delete/").status_code == code
    assert writes() == before


def test_opening_the_tenant_to_an_outside_24_is_flagged_by_lint(world, client):
    partners = add_partners(world, client, "130.225.1.0/24")  # a public network (TEST-NETs count as private)
    response = client.post(
        f"/network/firewall/policies/{tenant_policy(world).pk}/rules/new/",
        rule_post(world, name="partner_in", sources=[partners.pk], direction="in"),
        follow=True,
    )
    page = response.content.decode()
    assert "exposes-outside" in page and "outside network 130.225.1.0/24" in page


def test_a_private_partner_network_or_a_single_public_host_is_not_flagged(world, client):
    lab = add_partners(world, client, "172.16.5.0/24\n130.225.9.7/32")
    page = client.post(
        f"/network/firewall/policies/{tenant_policy(world).pk}/rules/new/",
        rule_post(world, name="lab_in", sources=[lab.pk], direction="in"),
        follow=True,
    ).content.decode()
    assert "exposes-outside" not in page


def test_owners_are_offered_site_groups_only_for_drop_and_reject_rules(world, client):
    url = f"/network/firewall/policies/{tenant_policy(world).pk}/rules/new/"
    nfs = group(world, "nfs_servers", None)
    client = login(client, world.owner_a)
    assert f'value="{nfs.pk}"' not in client.get(url).content.decode()
    assert f'value="{nfs.pk}"' in client.get(url + "?action=drop").content.decode()
    client.post(url, rule_post(world, name="no_nfs", destinations=[nfs.pk], action="drop"))
    assert FirewallRule.objects.filter(name="no_nfs", action="drop").exists()
