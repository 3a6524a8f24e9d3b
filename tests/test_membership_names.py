"""Adding a member by name tells no one more than needed about which users exist on the site."""

import pytest

from tenants.models import Membership

pytestmark = pytest.mark.django_db


def _add(api, by, tenant, username):
    return api(by).post("/api/v1/memberships/", {"tenant": tenant.pk, "username": username}, format="json")


def test_an_owner_gets_the_same_answer_for_an_unknown_name_a_disabled_user_and_a_site_account(world, api, make_user):
    make_user("gone").__class__.objects.filter(username="gone").update(is_active=False)
    make_user("admin")  # a break-glass account (ENCLAVE_BREAK_GLASS_USERS)
    answers = [_add(api, world.owner_a, world.tenant_a, name) for name in ("nobody-here", "gone", "admin")]
    assert {a.status_code for a in answers} == {400}
    assert answers[0].json() == answers[1].json() == answers[2].json()
    assert "username" in answers[0].json()
    assert not Membership.objects.filter(tenant=world.tenant_a, user__username__in=["gone", "admin"]).exists()


def test_a_member_who_is_not_an_owner_learns_nothing_about_names(world, api, make_user):
    make_user("someone")
    known, unknown = (_add(api, world.member_a, world.tenant_a, name) for name in ("someone", "nobody-here"))
    assert known.status_code == unknown.status_code == 403 and known.json() == unknown.json()


def test_someone_outside_the_tenant_learns_nothing_about_names(world, api, make_user):
    make_user("someone")
    known, unknown = (_add(api, world.owner_b, world.tenant_a, name) for name in ("someone", "nobody-here"))
    assert known.status_code == unknown.status_code and known.json() == unknown.json()


def test_an_owner_adds_an_active_user_by_name(world, api, make_user):
    make_user("newcomer")
    response = _add(api, world.owner_a, world.tenant_a, "newcomer")
    assert response.status_code == 201 and response.json()["username"] == "newcomer"


def test_an_owner_cannot_add_another_tenants_member_and_learns_no_more_than_for_an_unknown_name(world, api):
    shared, unknown = (_add(api, world.owner_a, world.tenant_a, name) for name in ("member-b", "nobody-here"))
    assert shared.status_code == unknown.status_code == 400 and shared.json() == unknown.json()
    assert "a member of another tenant is added by a site admin" in str(shared.json())
    assert not Membership.objects.filter(tenant=world.tenant_a, user=world.member_b).exists()


def test_a_site_admin_adds_another_tenants_member(world, api):
    response = _add(api, world.admin, world.tenant_a, "member-b")
    assert response.status_code == 201
    assert Membership.objects.filter(tenant=world.tenant_a, user=world.member_b).exists()


def test_an_owner_may_re_add_a_member_of_their_own_tenant_with_another_role(world, api):
    response = api(world.owner_a).post(
        "/api/v1/memberships/", {"tenant": world.tenant_a.pk, "username": "member-a", "role": "owner"}, format="json"
    )
    assert response.status_code == 201


def test_an_owner_changes_the_role_of_their_member_who_also_belongs_to_another_tenant(world, api):
    assert _add(api, world.admin, world.tenant_a, "member-b").status_code == 201  # a site admin shared them
    promote = {"tenant": world.tenant_a.pk, "username": "member-b", "role": "owner"}
    response = api(world.owner_a).post("/api/v1/memberships/", promote, format="json")
    assert response.status_code == 201, response.content
    assert Membership.objects.get(tenant=world.tenant_a, user=world.member_b).role == "owner"


def test_the_last_owner_cannot_step_down_to_member_and_the_tenant_keeps_an_owner(world, api):
    demote = {"tenant": world.tenant_a.pk, "username": "owner-a", "role": "member"}
    response = api(world.owner_a).post("/api/v1/memberships/", demote, format="json")
    assert response.status_code == 409 and "at least one owner" in response.json()["detail"]
    assert Membership.objects.get(tenant=world.tenant_a, user=world.owner_a).role == "owner"
    _add(api, world.admin, world.tenant_a, "member-a")  # unchanged: still a member
    promote = {"tenant": world.tenant_a.pk, "username": "member-a", "role": "owner"}
    assert api(world.owner_a).post("/api/v1/memberships/", promote, format="json").status_code == 201
    assert api(world.owner_a).post("/api/v1/memberships/", demote, format="json").status_code == 201  # another owner
