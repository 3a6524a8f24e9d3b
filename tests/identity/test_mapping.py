"""The one mapping from directory groups to tenants and roles (identity.mapping.sync_user)."""

import pytest
from django.contrib.auth import get_user_model

from audit.models import AuditEvent
from identity.mapping import group_keys, sync_user
from identity.models import DirectoryAccount, GroupRule
from tenants import services
from tenants.choices import MembershipSource, Role
from tenants.models import Membership, Tenant
from users.models import PosixAccount

pytestmark = pytest.mark.django_db
ASTRO_PI = "cn=hpc-astro-pi,ou=groups,dc=example,dc=org"
ASTRO = "cn=hpc-astro,ou=groups,dc=example,dc=org"
ADMINS = "cn=hpc-admins,ou=groups,dc=example,dc=org"


@pytest.fixture
def rules(db):
    astro = services.create_tenant("astro", "Astrophysics")
    GroupRule.objects.create(group=ASTRO_PI, action="owner", tenant_slug="astro")  # LDAP groups: by DN
    GroupRule.objects.create(group=ASTRO, action="member", tenant_slug="astro")
    GroupRule.objects.create(group="hpc-admins", action="site_admin")  # a plain name (OIDC)
    GroupRule.objects.create(group="cn=hpc-bio,ou=groups,dc=example,dc=org", action="member", tenant_slug="bio",
                             create_tenant=True)  # fmt: skip
    return astro


@pytest.fixture
def dana(db):
    user = get_user_model().objects.create_user("dana")
    user.set_unusable_password()
    user.save()
    return user


def roles(user) -> dict:
    return {m.tenant.slug: (m.role, m.source) for m in Membership.objects.filter(user=user).select_related("tenant")}


def test_a_group_dn_is_one_key_in_canonical_form_and_a_plain_name_another():
    # Changed deliberately (issue 31 item 9): a DN no longer also yields its cn, which matched any OU.
    assert group_keys([ASTRO_PI]) == [ASTRO_PI]
    assert group_keys(["CN=HPC-Astro-PI, OU=Groups,  dc=example,DC=org"]) == [ASTRO_PI]
    assert group_keys(["  HPC-Astro "]) == ["hpc-astro"]
    assert group_keys(["cn=a\\,b,ou=x"]) == ["cn=a\\,b,ou=x"]  # an escaped comma stays part of the value
    assert group_keys(["cn=", "cn=a,", "cn=#0402"]) == []  # not DNs, or values no rule could name


def test_with_the_sites_opt_in_an_ldap_groups_cn_is_also_a_plain_name():
    assert group_keys([ASTRO_PI], match_cn=True) == [ASTRO_PI, "hpc-astro-pi"]
    assert group_keys(["uid=x+cn=hpc-admins,ou=groups", "ou=hpc-admins,dc=example"], match_cn=True) == [
        "cn=hpc-admins+uid=x,ou=groups", "ou=hpc-admins,dc=example"]  # fmt: skip


@pytest.mark.parametrize(("groups", "source"), [
    (["cn=hpc-admins,ou=clubs,ou=groups,dc=example,dc=org"], "ldap"),  # the same cn in another OU
    (["cn=hpc-admins"], "ldap"), (["x=hpc-admins"], "oidc"), (["cn=hpc\\-admins"], "oidc"),
    (["cn=hpc-admins,ou=groups,dc=example,dc=org,dc=evil"], "ldap"),
])  # fmt: skip
def test_a_group_that_only_shares_a_cn_with_a_rules_group_matches_nothing(rules, dana, groups, source):
    GroupRule.objects.create(group=ADMINS, action="site_admin")
    result = sync_user(dana, groups, source=source)
    assert result.staff is None and not result.member_of_any
    dana.refresh_from_db()
    assert not dana.is_staff


def test_a_plain_rule_matches_an_oidc_group_of_that_name_and_an_ldap_cn_only_with_the_opt_in(rules, dana, settings):
    sync_user(dana, ["hpc-admins"], source="oidc")
    assert dana.is_staff
    sync_user(dana, ["cn=hpc-admins,ou=clubs,dc=example,dc=org"], source="ldap")
    dana.refresh_from_db()
    assert not dana.is_staff
    settings.LDAP_MATCH_GROUP_CN = True
    assert sync_user(dana, ["cn=hpc-admins,ou=clubs,dc=example,dc=org"], source="ldap").staff is True


def test_directory_groups_grant_tenant_roles_marked_as_from_the_directory(rules, dana):
    result = sync_user(dana, [ASTRO_PI, ASTRO], source="ldap", uid=70001)
    assert roles(dana) == {"astro": (Role.OWNER, MembershipSource.DIRECTORY)}  # owner wins over member
    assert result.added == ["astro:owner"] and result.member_of_any
    assert PosixAccount.objects.get(user=dana).uid == 70001
    assert DirectoryAccount.objects.get(user=dana).groups == group_keys([ASTRO_PI, ASTRO])


def test_a_second_sync_with_the_same_groups_changes_and_audits_nothing(rules, dana):
    sync_user(dana, [ASTRO], source="ldap", uid=70001)
    events = AuditEvent.objects.count()
    result = sync_user(dana, [ASTRO], source="ldap", uid=70001)
    assert not result.changed_anything
    assert AuditEvent.objects.count() == events


def test_every_change_is_audited_with_the_directory_as_its_actor(rules, dana):
    sync_user(dana, [ASTRO, "hpc-admins"], source="oidc", uid=70002)
    events = AuditEvent.objects.filter(actor_label="directory (oidc)")
    assert {"membership.create", "user.staff", "posix_account.create"} <= set(events.values_list("action", flat=True))


def test_leaving_a_group_removes_only_what_the_directory_granted(rules, dana):
    other = services.create_tenant("chem", "Chemistry")
    services.set_membership(other, dana, Role.MEMBER)  # granted by hand
    sync_user(dana, [ASTRO], source="ldap")
    result = sync_user(dana, [], source="ldap")
    assert result.removed == ["astro"]
    assert roles(dana) == {"chem": (Role.MEMBER, MembershipSource.LOCAL)}
    assert result.member_of_any  # still a member of chem


def test_a_membership_granted_by_hand_is_never_changed_by_the_directory(rules, dana):
    services.set_membership(rules, dana, Role.MEMBER)
    sync_user(dana, [ASTRO_PI], source="ldap")
    assert roles(dana) == {"astro": (Role.MEMBER, MembershipSource.LOCAL)}


def test_the_site_admin_flag_follows_the_directory_only_when_the_directory_set_it(rules, dana, make_user):
    assert sync_user(dana, ["hpc-admins"], source="ldap").staff is True
    assert sync_user(dana, [], source="ldap").staff is False
    dana.refresh_from_db()
    assert not dana.is_staff
    local_admin = make_user("root-admin", staff=True)
    sync_user(local_admin, [], source="ldap")
    local_admin.refresh_from_db()
    assert local_admin.is_staff  # a staff flag set by hand stays


def test_a_create_tenant_rule_creates_its_tenant_when_the_group_first_signs_in(rules, dana):
    result = sync_user(dana, ["cn=hpc-bio,ou=groups,dc=example,dc=org"], source="ldap")
    assert result.created_tenants == ["bio"]
    assert Tenant.objects.filter(slug="bio").exists()
    assert roles(dana) == {"bio": (Role.MEMBER, MembershipSource.DIRECTORY)}


def test_a_rule_whose_tenant_does_not_exist_grants_nothing(rules, dana):
    GroupRule.objects.create(group="hpc-gone", action="member", tenant_slug="gone")
    result = sync_user(dana, ["hpc-gone"], source="ldap")
    assert roles(dana) == {} and not result.member_of_any


def test_a_uid_taken_by_another_user_is_refused_and_reported_not_raised(rules, dana, make_user):
    PosixAccount.objects.create(user=make_user("eve"), uid=70003)
    result = sync_user(dana, [ASTRO], source="ldap", uid=70003)
    assert result.errors == ["UID 70003 already belongs to another account; ask a site admin"]
    assert not PosixAccount.objects.filter(user=dana).exists()
    assert roles(dana) == {"astro": (Role.MEMBER, MembershipSource.DIRECTORY)}  # the rest still applies


@pytest.mark.parametrize("uid", ["abc", 12, 2**31])
def test_a_uid_that_is_not_a_valid_posix_uid_is_refused(rules, dana, uid):
    assert sync_user(dana, [ASTRO], source="ldap", uid=uid).errors
    assert not PosixAccount.objects.filter(user=dana).exists()


def test_the_last_owner_is_kept_when_the_directory_drops_them_and_the_sync_says_why(rules, dana):
    sync_user(dana, [ASTRO_PI], source="ldap")
    result = sync_user(dana, [], source="ldap")
    assert result.kept and "owner" in result.kept[0]
    assert roles(dana) == {"astro": (Role.OWNER, MembershipSource.DIRECTORY)}


def test_the_last_owner_moved_to_a_member_group_stays_owner_and_the_sync_says_why(rules, dana):
    sync_user(dana, [ASTRO_PI], source="ldap")
    result = sync_user(dana, [ASTRO], source="ldap")
    assert result.kept and "owner" in result.kept[0]
    assert roles(dana) == {"astro": (Role.OWNER, MembershipSource.DIRECTORY)}


def test_a_hand_made_role_change_makes_a_directory_membership_local(rules, dana):
    sync_user(dana, [ASTRO], source="ldap")
    services.set_membership(rules, dana, Role.OWNER)
    sync_user(dana, [], source="ldap")
    assert roles(dana) == {"astro": (Role.OWNER, MembershipSource.LOCAL)}


def test_the_rule_form_stores_a_dn_in_canonical_form_and_refuses_what_is_not_one(rules):
    from identity.forms import GroupRuleForm

    form = GroupRuleForm(data={"group": "CN=HPC-Astro, OU=Groups,dc=example,dc=org", "action": "site_admin"})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["group"] == ASTRO
    for bad in ("cn=a,", "cn=", "=x", "cn=(x)"):
        assert "group" in GroupRuleForm(data={"group": bad, "action": "site_admin"}).errors


def test_the_migration_rewrites_existing_dn_rules_canonically_and_drops_a_rule_spelled_twice(rules):
    import importlib

    from django.apps import apps

    migration = importlib.import_module("identity.migrations.0004_group_rule_dn_canonical")
    GroupRule.objects.create(group="cn=hpc-astro, ou=groups, dc=example, dc=org", action="member", tenant_slug="astro")
    GroupRule.objects.create(group="cn=hpc-chem,  OU=groups,dc=example,dc=org", action="member", tenant_slug="astro")
    migration.canonical_dns(apps, None)
    groups = sorted(GroupRule.objects.filter(group__contains="=").values_list("group", flat=True))
    assert groups == [ASTRO, ASTRO_PI, "cn=hpc-bio,ou=groups,dc=example,dc=org",
                      "cn=hpc-chem,ou=groups,dc=example,dc=org"]  # fmt: skip
