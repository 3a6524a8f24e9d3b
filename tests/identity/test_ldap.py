"""Signing in with the site's LDAP directory (real slapd, StartTLS, a CA made by the test)."""

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ImproperlyConfigured
from django.urls import reverse

from audit.models import AuditEvent
from identity.ldap import LOCAL_CLASH, NO_GROUP, UNREACHABLE, resync_all
from identity.models import DirectoryAccount, GroupRule
from portal.ldap_settings import ldap_settings
from tenants.choices import MembershipSource, Role
from tenants.models import Membership
from tests.identity.conftest import configure
from tests.identity.slapd import USERS, group_dn
from users.models import PosixAccount

pytestmark = pytest.mark.django_db


def sign_in(client, username, password=None):
    password = password or USERS[username][1]
    return client.post(reverse("login"), {"username": username, "password": password})


def roles(username) -> dict:
    rows = Membership.objects.filter(user__username=username).values_list("tenant__slug", "role", "source")
    return {slug: (role, source) for slug, role, source in rows}


def test_a_pi_signs_in_with_the_directory_and_owns_the_tenant_their_group_maps_to(client, directory):
    response = sign_in(client, "ada")
    assert response.status_code == 302
    assert roles("ada") == {"astro": (Role.OWNER, MembershipSource.DIRECTORY)}
    assert PosixAccount.objects.get(user__username="ada").uid == USERS["ada"][0]
    user = get_user_model().objects.get(username="ada")
    assert user.email == "ada@example.org" and not user.has_usable_password()
    assert client.get(reverse("frontend:home")).status_code == 200


def test_a_wrong_password_is_refused_like_any_other(client, directory):
    response = sign_in(client, "ada", "not-her-password")
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()


def test_a_user_in_no_mapped_group_is_told_to_ask_their_pi(client, directory):
    response = sign_in(client, "carl")
    assert response.status_code == 200
    assert NO_GROUP in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_a_site_admin_group_makes_a_site_admin(client, directory):
    sign_in(client, "dirk")
    assert get_user_model().objects.get(username="dirk").is_staff
    assert client.get(reverse("identity:rule-list")).status_code == 200


def test_a_group_of_the_same_cn_in_another_ou_grants_nothing(client, directory):
    response = sign_in(client, "carl")  # member of cn=hpc-admins,ou=clubs,...: not the site-admin group
    assert NO_GROUP in response.content.decode()
    assert not get_user_model().objects.get(username="carl").is_staff


def test_plain_rule_names_match_ldap_group_cns_only_where_the_site_opts_in(client, directory, settings, monkeypatch,
                                                                           slapd):  # fmt: skip
    GroupRule.objects.all().delete()
    GroupRule.objects.create(group="hpc-astro", action="member", tenant_slug="astro")
    assert sign_in(client, "bob").status_code == 200  # refused: a plain name matches no LDAP group by default
    configure(settings, monkeypatch, slapd, ENCLAVE_LDAP_MATCH_GROUP_CN="1")
    assert sign_in(client, "bob").status_code == 302
    assert roles("bob") == {"astro": (Role.MEMBER, MembershipSource.DIRECTORY)}


def test_a_user_whose_groups_change_is_resynchronised_at_the_next_sign_in(client, directory, slapd):
    sign_in(client, "bob")
    assert roles("bob") == {"astro": (Role.MEMBER, MembershipSource.DIRECTORY)}
    slapd.set_members("hpc-astro-pi", ["ada", "bob"])
    try:
        client.logout()
        sign_in(client, "bob")
        assert roles("bob") == {"astro": (Role.OWNER, MembershipSource.DIRECTORY)}
    finally:
        slapd.set_members("hpc-astro-pi", ["ada"])


def test_the_periodic_resync_removes_a_member_taken_out_of_the_group(client, directory, slapd):
    sign_in(client, "bob")
    slapd.set_members("hpc-astro", ["ada"])
    try:
        counts = resync_all()
        assert counts["changed"] == 1 and not counts["stopped_by_error"]
        assert roles("bob") == {}
    finally:
        slapd.set_members("hpc-astro", ["ada", "bob"])


def test_the_resync_revokes_the_api_tokens_of_a_user_removed_from_the_directory(client, directory, slapd):
    from audit.models import AuditEvent
    from tenants import services as tenants
    from users import services as tokens

    sign_in(client, "bob")
    bob = get_user_model().objects.get(username="bob")
    tenants.set_membership(tenants.create_tenant("chem", "Chemistry"), bob, Role.MEMBER)  # by hand: stays
    token, raw = tokens.create_token(bob, "ci")
    client.logout()
    with slapd.without_user("bob"):
        counts = resync_all()
    assert (counts["gone"], counts["tokens_revoked"], counts["stopped_by_error"]) == (1, 1, False)
    token.refresh_from_db()
    assert token.revoked_at is not None
    assert client.get("/api/v1/tenants/", HTTP_AUTHORIZATION=f"Bearer {raw}").status_code == 401
    event = AuditEvent.objects.get(action="token.revoke", object_id=str(token.pk))
    assert event.actor_label == "directory (ldap)" and "no longer in the directory" in event.message
    assert resync_all()["tokens_revoked"] == 0  # the directory answers again: nothing more to revoke


def test_a_resync_revokes_no_token_of_a_user_still_in_the_directory(client, directory, slapd):
    from users import services as tokens

    sign_in(client, "bob")
    token, _ = tokens.create_token(get_user_model().objects.get(username="bob"), "ci")
    slapd.set_members("hpc-astro", ["ada"])  # out of every mapped group, but still in the directory
    try:
        assert resync_all()["tokens_revoked"] == 0
    finally:
        slapd.set_members("hpc-astro", ["ada", "bob"])
    token.refresh_from_db()
    assert token.revoked_at is None


def test_the_resync_changes_nothing_when_the_directory_is_down(client, directory, settings, monkeypatch, slapd):
    sign_in(client, "bob")
    configure(settings, monkeypatch, slapd, uri="ldap://127.0.0.1:9")  # nothing listens on the discard port
    counts = resync_all()
    assert counts["stopped_by_error"] and counts["users"] == 0
    assert roles("bob") == {"astro": (Role.MEMBER, MembershipSource.DIRECTORY)}


def test_a_directory_that_is_down_gives_a_clear_message_not_a_500(client, directory, settings, monkeypatch, slapd):
    configure(settings, monkeypatch, slapd, uri="ldap://127.0.0.1:9")
    response = sign_in(client, "ada")
    assert response.status_code == 200
    assert UNREACHABLE in response.content.decode()


def test_a_directory_whose_certificate_the_ca_does_not_sign_is_refused(client, directory, settings, monkeypatch, slapd):
    # Any CA but the directory's: the system's bundle.
    configure(settings, monkeypatch, slapd, ENCLAVE_LDAP_CA_FILE="/etc/ssl/certs/ca-certificates.crt")
    response = sign_in(client, "ada")
    assert UNREACHABLE in response.content.decode()
    assert not get_user_model().objects.filter(username="ada").exists()


def test_a_local_account_is_never_taken_over_by_a_directory_entry_of_the_same_name(client, directory, make_user):
    make_user("ada")  # a local account with a password
    response = sign_in(client, "ada")
    assert LOCAL_CLASH in response.content.decode()
    assert not DirectoryAccount.objects.filter(user__username="ada").exists()
    assert "an existing local account has that name" in AuditEvent.objects.get(action="user.sign_in_refused").message


def test_an_account_the_openid_provider_created_is_not_taken_over_by_a_directory_entry(client, directory):
    from identity import mapping
    from identity.choices import Source

    ada = get_user_model()(username="ada")  # as an OpenID sign-in creates it: no password
    ada.set_unusable_password()
    ada.save()
    mapping.sync_user(ada, [group_dn("hpc-astro")], source=Source.OIDC)
    DirectoryAccount.objects.filter(user=ada).update(subject="provider-sub-of-another-ada")
    response = sign_in(client, "ada")
    assert LOCAL_CLASH in response.content.decode()
    assert "_auth_user_id" not in client.session
    assert DirectoryAccount.objects.get(user=ada).source == Source.OIDC
    assert roles("ada") == {"astro": (Role.MEMBER, MembershipSource.DIRECTORY)}  # not the directory's owner role
    refusal = AuditEvent.objects.get(action="user.sign_in_refused")
    assert "an existing account linked to oidc has that name" in refusal.message


def test_local_passwords_can_be_switched_off_except_for_break_glass_accounts(client, directory, settings, make_user):
    make_user("researcher")
    make_user("admin", staff=True)
    settings.LOCAL_LOGIN, settings.BREAK_GLASS_USERS = False, ["admin"]
    assert sign_in(client, "researcher", "pw-researcher").status_code == 200  # refused
    assert sign_in(client, "admin", "pw-admin").status_code == 302
    assert sign_in(client, "ada").status_code == 302  # the directory still signs people in


def test_a_client_that_skips_starttls_is_refused_by_the_directory(client, directory, settings, monkeypatch, slapd):
    configure(settings, monkeypatch, slapd, ENCLAVE_LDAP_START_TLS="0", ENCLAVE_LDAP_ALLOW_PLAINTEXT="1")
    assert settings.AUTH_LDAP_START_TLS is False
    assert sign_in(client, "ada").status_code == 200
    assert not get_user_model().objects.filter(username="ada").exists()


def test_plain_ldap_without_starttls_is_a_configuration_error_unless_explicitly_allowed(monkeypatch):
    monkeypatch.setenv("ENCLAVE_LDAP_START_TLS", "0")
    with pytest.raises(ImproperlyConfigured, match="in clear"):
        ldap_settings("ldap://directory.example.org")
    assert ldap_settings("ldaps://directory.example.org")["AUTH_LDAP_START_TLS"] is False
