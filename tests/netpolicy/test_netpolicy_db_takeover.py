"""Site firewall objects cannot be taken over: editors are checked against the current owner and the new one."""

import pytest

from netpolicy.models import FirewallPolicy, Group
from tenants import services
from tenants.choices import Role
from tests.security.framework import assert_nothing_changed, assert_site_compiles, state_digest

pytestmark = pytest.mark.django_db


def site_deny():
    return FirewallPolicy.objects.get(tenant__isnull=True, name="site_default_deny")


def site_group(name):
    return Group.objects.get(tenant__isnull=True, name=name)


@pytest.mark.parametrize("method", ["patch", "put"])
def test_an_owner_cannot_move_the_site_default_deny_into_his_tenant(world, api, method):
    deny = site_deny()
    body = {"name": deny.name, "tenant": world.tenant_a.pk, "category": deny.category, "sequence": deny.sequence}
    before = state_digest()
    response = getattr(api(world.owner_a), method)(f"/api/v1/firewall-policies/{deny.pk}/", body, format="json")
    assert response.status_code == 403
    assert response.json()["detail"] == "Only site admins edit site-wide policy objects."
    assert_nothing_changed(before)
    assert api(world.owner_b).get("/api/v1/firewall-rules/").status_code == 200


@pytest.mark.parametrize("name", ["nfs_servers", "dns_servers"])
def test_an_owner_cannot_move_a_site_group_into_his_tenant(world, api, name):
    group = site_group(name)
    before = state_digest()
    response = api(world.owner_a).patch(f"/api/v1/groups/{group.pk}/", {"tenant": world.tenant_a.pk}, format="json")
    assert response.status_code == 403
    assert_nothing_changed(before)


def test_an_owner_cannot_hand_his_policy_to_the_site(world, api):
    policy = FirewallPolicy.objects.get(tenant=world.tenant_a, name="isolation")
    before = state_digest()
    response = api(world.owner_a).patch(f"/api/v1/firewall-policies/{policy.pk}/", {"tenant": None}, format="json")
    assert response.status_code == 403
    assert_nothing_changed(before)


def test_an_owner_of_two_tenants_cannot_move_a_policy_or_group_between_them(world, api):
    services.set_membership(world.tenant_b, world.owner_a, Role.OWNER)
    policy = FirewallPolicy.objects.get(tenant=world.tenant_a, name="isolation")
    group = Group.objects.get(tenant=world.tenant_a, name="login")
    client = api(world.owner_a)
    before = state_digest()
    moved = client.patch(f"/api/v1/firewall-policies/{policy.pk}/", {"tenant": world.tenant_b.pk}, format="json")
    assert moved.status_code == 400
    assert "A policy stays with the tenant it was created in" in moved.json()["tenant"][0]
    moved = client.patch(f"/api/v1/groups/{group.pk}/", {"tenant": world.tenant_b.pk}, format="json")
    assert moved.status_code == 400 and "A group stays with" in moved.json()["tenant"][0]
    assert_nothing_changed(before)


@pytest.mark.parametrize("target", ["tenant", "site"])
def test_even_a_site_admin_does_not_move_policy_objects_between_owners(world, api, target):
    """A moved policy would keep rules naming the old owner's groups; a new one is created instead."""
    tenant = world.tenant_a.pk if target == "tenant" else world.tenant_b.pk
    policy = site_deny() if target == "tenant" else FirewallPolicy.objects.get(tenant=world.tenant_a, name="isolation")
    group = site_group("nfs_servers") if target == "tenant" else Group.objects.get(tenant=world.tenant_a, name="all")
    client = api(world.admin)
    before = state_digest()
    assert client.patch(f"/api/v1/firewall-policies/{policy.pk}/", {"tenant": tenant}, format="json").status_code == 400
    assert client.patch(f"/api/v1/groups/{group.pk}/", {"tenant": tenant}, format="json").status_code == 400
    assert_nothing_changed(before)


def test_repeating_the_current_tenant_is_no_move(world, api):
    policy = FirewallPolicy.objects.get(tenant=world.tenant_a, name="isolation")
    body = {
        "name": "isolation",
        "tenant": world.tenant_a.pk,
        "category": "application",
        "sequence": 100,
        "description": "PUT carries the tenant it already has",
    }
    response = api(world.owner_a).put(f"/api/v1/firewall-policies/{policy.pk}/", body, format="json")
    assert response.status_code == 200, response.json()
    assert_site_compiles()


def test_another_tenants_objects_named_in_a_body_look_exactly_like_missing_ones(world, api):
    """Pools reserved for B, B's segments, policies and groups: the refusal says no more than for a made-up id."""
    from netpolicy import allocation, segments
    from tests.netpolicy.test_netpolicy_db_segments import make_pools

    make_pools(world.admin)
    reserved = allocation.create_pool(world.admin, {"name": "b-vlans", "kind": "vlan", "first": 300, "last": 309,
                                                    "tenant": world.tenant_b})  # fmt: skip
    segment_b = segments.create_segment(world.tenant_b, world.admin, {"name": "s", "kind": "vlan"})
    policy_b = FirewallPolicy.objects.get(tenant=world.tenant_b)
    group_b = Group.objects.get(tenant=world.tenant_b, name="all")
    missing = 987654321
    probes = [
        ("/api/v1/segments/", {"tenant": world.tenant_a.pk, "name": "x", "kind": "vlan", "id_pool": "{}"}, reserved),
        ("/api/v1/groups/", {"tenant": world.tenant_a.pk, "name": "x", "segment": "{}"}, segment_b),
        ("/api/v1/firewall-rules/", {"policy": "{}", "name": "x", "sequence": 9, "action": "drop"}, policy_b),
        ("/api/v1/firewall-rules/", {"policy": FirewallPolicy.objects.get(tenant=world.tenant_a).pk, "name": "x",
                                     "sequence": 9, "action": "drop", "sources": ["{}"]}, group_b),
    ]  # fmt: skip
    client = api(world.owner_a)
    for path, body, hidden in probes:
        answers = []
        for pk in (hidden.pk, missing):
            filled = {k: ([pk] if v == ["{}"] else pk if v == "{}" else v) for k, v in body.items()}
            response = client.post(path, filled, format="json")
            answers.append((response.status_code, response.content.decode().replace(str(pk), "PK")))
        assert answers[0] == answers[1], (path, answers)
        assert "b-vlans" not in answers[0][1] and "tenant-b" not in answers[0][1]
