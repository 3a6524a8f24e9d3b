"""Signing in with the institution's OpenID provider (the npm `oidc-provider`, started by the suite)."""

import urllib.parse

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from identity.ldap import NO_GROUP
from identity.models import DirectoryAccount
from identity.oidc import PROVIDER_DOWN, USERNAME_TAKEN
from tenants.choices import MembershipSource, Role
from tenants.models import Membership
from tests.identity import oidc_provider as op
from users.models import PosixAccount

pytestmark = pytest.mark.django_db


def roles(username) -> dict:
    rows = Membership.objects.filter(user__username=username).values_list("tenant__slug", "role", "source")
    return {slug: (role, source) for slug, role, source in rows}


def passwordless(username: str):
    user = get_user_model()(username=username)
    user.set_unusable_password()
    user.save()
    return user


def sign_in(client, user: str):
    """The whole code flow with PKCE: Enclave's redirect, the provider's login page, the callback."""
    start = client.get(reverse("oidc_authentication_init"))
    assert start.status_code == 302
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(start["Location"]).query)
    assert query["code_challenge_method"] == ["S256"] and query["code_challenge"]
    back = op.sign_in_at_provider(start["Location"], user)
    return client.get(back.replace("http://testserver", ""), follow=True)


def test_a_pi_signs_in_with_the_provider_and_owns_the_tenant_their_group_maps_to(client, sso):
    response = sign_in(client, "olga")
    assert response.redirect_chain[-1][0] == reverse("frontend:home")
    assert roles("olga") == {"astro": (Role.OWNER, MembershipSource.DIRECTORY)}
    assert PosixAccount.objects.get(user__username="olga").uid == 72001
    assert not get_user_model().objects.get(username="olga").has_usable_password()


def test_a_user_in_no_mapped_group_is_told_to_ask_their_pi(client, sso):
    response = sign_in(client, "nomad")
    assert NO_GROUP in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_a_user_whose_groups_change_is_resynchronised_at_the_next_sign_in(client, sso, oidc_provider):
    sign_in(client, "oscar")
    assert roles("oscar") == {"astro": (Role.MEMBER, MembershipSource.DIRECTORY)}
    oidc_provider.set_groups("oscar", ["hpc-astro-pi"])
    try:
        client.post(reverse("logout"))
        sign_in(client, "oscar")
        assert roles("oscar") == {"astro": (Role.OWNER, MembershipSource.DIRECTORY)}
    finally:
        oidc_provider.set_groups("oscar", ["hpc-astro"])


def test_a_claim_the_provider_does_not_send_is_a_clear_message(client, sso, settings):
    settings.OIDC_GROUPS_CLAIM = "research_groups"
    response = sign_in(client, "olga")
    assert "did not say your groups" in response.content.decode()


def test_a_provider_that_is_down_gives_a_clear_message_not_a_500(client, sso, settings):
    start = client.get(reverse("oidc_authentication_init"))
    state = urllib.parse.parse_qs(urllib.parse.urlsplit(start["Location"]).query)["state"][0]
    settings.OIDC_OP_TOKEN_ENDPOINT = "http://127.0.0.1:9/token"  # nothing listens there
    response = client.get(reverse("oidc_authentication_callback"), {"code": "abc", "state": state}, follow=True)
    assert response.status_code == 200
    assert PROVIDER_DOWN in response.content.decode()


def test_the_api_accepts_the_providers_access_tokens_and_refreshed_ones(client, sso, oidc_provider):
    tokens = op.tokens_for(oidc_provider, "olga")
    response = client.get("/api/v1/tenants/", HTTP_AUTHORIZATION=f"Bearer {tokens['access_token']}")
    assert response.status_code == 200
    assert [t["slug"] for t in response.json()["results"]] == ["astro"]
    renewed = op.refreshed(oidc_provider, tokens["refresh_token"])
    assert renewed["access_token"] != tokens["access_token"]
    response = client.get("/api/v1/tenants/", HTTP_AUTHORIZATION=f"Bearer {renewed['access_token']}")
    assert response.status_code == 200


def test_a_forged_provider_token_is_refused(client, sso):
    response = client.get("/api/v1/tenants/", HTTP_AUTHORIZATION="Bearer not-a-token-the-provider-issued")
    assert response.status_code == 401


def test_the_providers_button_is_on_the_login_page_only_while_oidc_is_on(client, sso, settings):
    assert "Sign in with Test University" in client.get(reverse("login")).content.decode()
    settings.OIDC_ENABLED = False
    assert "Sign in with" not in client.get(reverse("login")).content.decode()
    assert client.get(reverse("oidc_authentication_init")).status_code == 404


def test_local_passwords_and_enclaves_own_tokens_keep_working_with_sso_on(client, sso, world):
    from users import services as tokens

    response = client.post(reverse("login"), {"username": "owner-a", "password": "pw-owner-a"})
    assert response.status_code == 302
    _, raw = tokens.create_token(world.owner_a, "ci")
    client.logout()
    response = client.get("/api/v1/tenants/", HTTP_AUTHORIZATION=f"Bearer {raw}")
    assert response.status_code == 200 and [t["slug"] for t in response.json()["results"]] == ["tenant-a"]
    assert client.get("/api/v1/tenants/", HTTP_AUTHORIZATION="Bearer enc_forged").status_code == 401


def test_the_periodic_resync_asks_the_provider_for_away_users_groups(client, sso, oidc_provider):
    from identity import oidc

    sign_in(client, "oscar")
    account = DirectoryAccount.objects.get(user__username="oscar")
    assert account.refresh_token  # kept, encrypted at rest
    oidc_provider.set_groups("oscar", ["choir"])
    try:
        counts = oidc.resync_all()
        assert counts == {"users": 1, "changed": 1, "gone": 1, "stopped_by_error": False}
        assert roles("oscar") == {}
    finally:
        oidc_provider.set_groups("oscar", ["hpc-astro"])


def test_a_user_whose_refresh_token_the_provider_refuses_loses_directory_memberships_and_tokens(client, sso):
    from audit.models import AuditEvent
    from identity import oidc
    from users import services as tokens

    sign_in(client, "oscar")
    token, _ = tokens.create_token(get_user_model().objects.get(username="oscar"), "ci")
    DirectoryAccount.objects.filter(user__username="oscar").update(refresh_token="revoked-or-expired")
    oidc.resync_all()
    assert roles("oscar") == {}
    assert DirectoryAccount.objects.get(user__username="oscar").refresh_token == ""
    token.refresh_from_db()
    assert token.revoked_at is not None
    event = AuditEvent.objects.get(action="token.revoke", object_id=str(token.pk))
    assert event.actor_label == "directory (oidc)" and "no longer vouches" in event.message


def test_a_resync_whose_own_client_the_provider_refuses_stops_and_strips_nothing(client, sso, settings):
    from identity import oidc
    from users import services as tokens

    sign_in(client, "oscar")
    token, _ = tokens.create_token(get_user_model().objects.get(username="oscar"), "ci")
    settings.OIDC_RP_CLIENT_SECRET = "not-enclaves-secret"  # the provider answers 401 invalid_client
    assert oidc.resync_all()["stopped_by_error"] is True
    assert roles("oscar") == {"astro": (Role.MEMBER, MembershipSource.DIRECTORY)}
    assert DirectoryAccount.objects.get(user__username="oscar").refresh_token
    token.refresh_from_db()
    assert token.revoked_at is None


def test_another_provider_account_claiming_the_same_username_is_refused(client, sso):
    sign_in(client, "olga")
    client.post(reverse("logout"))
    response = sign_in(client, "impostor")  # preferred_username "olga", another sub
    assert USERNAME_TAKEN in response.content.decode()
    assert "_auth_user_id" not in client.session
    assert DirectoryAccount.objects.get(user__username="olga").subject == "olga"


def test_a_sign_in_whose_username_is_a_directory_accounts_is_not_taken_over(client, sso):
    from audit.models import AuditEvent
    from identity import mapping
    from identity.choices import Source

    olga = passwordless("olga")  # as an LDAP sign-in creates it
    mapping.sync_user(olga, ["hpc-astro"], source=Source.LDAP)
    response = sign_in(client, "olga")  # the provider's olga (sub "olga"): someone else until linked
    assert USERNAME_TAKEN in response.content.decode()
    assert "_auth_user_id" not in client.session
    account = DirectoryAccount.objects.get(user=olga)
    assert (account.source, account.subject, account.refresh_token) == (Source.LDAP, "", "")
    assert roles("olga") == {"astro": (Role.MEMBER, MembershipSource.DIRECTORY)}  # not the provider's owner
    event = AuditEvent.objects.get(action="user.sign_in_refused")
    assert event.object_id == str(olga.pk) and "'olga' belongs to an account linked to ldap" in event.message


def test_an_account_without_password_or_directory_link_is_not_taken_over_by_username(client, sso):

    passwordless("oscar")  # neither a password nor a directory link
    response = sign_in(client, "oscar")
    assert USERNAME_TAKEN in response.content.decode()
    assert "_auth_user_id" not in client.session
    assert not DirectoryAccount.objects.filter(user__username="oscar").exists()


def test_a_provider_token_of_an_unlinked_username_is_refused_on_the_api(client, sso, oidc_provider):
    passwordless("olga")
    tokens = op.tokens_for(oidc_provider, "olga")
    response = client.get("/api/v1/tenants/", HTTP_AUTHORIZATION=f"Bearer {tokens['access_token']}")
    assert response.status_code == 401
    assert not DirectoryAccount.objects.filter(user__username="olga").exists()


def _bearer(token: str) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"}


def test_a_token_the_provider_issued_to_another_application_is_refused_and_mints_nothing(client, sso, oidc_provider):
    from users.models import APIToken

    other = op.tokens_for(oidc_provider, "olga", client=(op.OTHER_ID, op.OTHER_SECRET))
    assert client.get("/api/v1/tenants/", **_bearer(other["access_token"])).status_code == 401
    minted = client.post("/api/v1/tokens/", {"name": "x", "scope": "write"}, content_type="application/json",
                         **_bearer(other["access_token"]))  # fmt: skip
    assert minted.status_code == 401
    assert not APIToken.objects.exists()


def test_a_provider_token_of_enclaves_client_reads_but_cannot_mint_an_enclave_token(client, sso, oidc_provider):
    from users.models import APIToken

    tokens = op.tokens_for(oidc_provider, "olga")
    assert client.get("/api/v1/tenants/", **_bearer(tokens["access_token"])).status_code == 200
    for scope in ("read", "write"):
        minted = client.post("/api/v1/tokens/", {"name": f"ci-{scope}", "scope": scope},
                             content_type="application/json", **_bearer(tokens["access_token"]))  # fmt: skip
        assert minted.status_code == 403 and "provider" in minted.json()["detail"]
    assert not APIToken.objects.exists()


def test_an_expired_provider_token_is_refused(client, sso, oidc_provider):
    import time

    tokens = op.tokens_for(oidc_provider, "brief")  # the provider's access tokens for brief live 1 s
    time.sleep(tokens["expires_in"] + 1.5)  # waits for the expiry; nothing is timed
    assert client.get("/api/v1/tenants/", **_bearer(tokens["access_token"])).status_code == 401


def _jwt(oidc_provider, alg: str, **changes) -> str:
    import time

    import jwt
    from cryptography.hazmat.primitives.asymmetric import rsa

    now = int(time.time())
    claims = {"iss": oidc_provider.issuer, "sub": "olga", "aud": op.CLIENT_ID, "client_id": op.CLIENT_ID,
              "azp": op.CLIENT_ID, "iat": now, "exp": now + 600, "scope": "openid groups"} | changes  # fmt: skip
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048) if alg != "none" else None
    return jwt.encode(claims, key, algorithm=alg, headers={"kid": "forged"})


@pytest.mark.parametrize("changes", [{"alg": "none"}, {"alg": "RS256"}, {"alg": "RS256", "iss": "https://evil.example"},
                                     {"alg": "RS256", "exp": 1}])  # fmt: skip
def test_forged_unsigned_wrong_issuer_and_expired_jwts_are_refused(client, sso, oidc_provider, changes):
    from users.models import APIToken

    token = _jwt(oidc_provider, **changes)
    assert client.get("/api/v1/tenants/", **_bearer(token)).status_code == 401
    minted = client.post("/api/v1/tokens/", {"name": "x"}, content_type="application/json", **_bearer(token))
    assert minted.status_code == 401
    assert not APIToken.objects.exists()


def test_without_an_introspection_endpoint_no_provider_token_is_accepted(client, sso, oidc_provider, settings):
    settings.OIDC_OP_INTROSPECTION_ENDPOINT = ""
    tokens = op.tokens_for(oidc_provider, "olga")
    assert client.get("/api/v1/tenants/", **_bearer(tokens["access_token"])).status_code == 401
