"""Per-user API tokens: hashed at rest, bearer auth, expiring and revocable."""

import datetime

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from users.models import APIToken, hash_token
from users.services import create_token, revoke_token

pytestmark = pytest.mark.django_db


def bearer(raw):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    return client


def test_a_token_is_shown_once_and_stored_only_as_a_hash(world, api):
    response = api(world.member_a).post("/api/v1/tokens/", {"name": "laptop"}, format="json")
    raw = response.json()["token"]
    token = APIToken.objects.get(pk=response.json()["id"])
    assert token.token_hash == hash_token(raw) and raw not in str(token.__dict__)
    assert "token" not in api(world.member_a).get(f"/api/v1/tokens/{token.pk}/").json() or \
        api(world.member_a).get(f"/api/v1/tokens/{token.pk}/").json()["token"] is None  # fmt: skip


def test_bearer_tokens_authenticate_and_scope_like_the_user(world):
    _, raw = create_token(world.member_b, "ci")
    client = bearer(raw)
    assert client.get("/api/v1/clusters/").status_code == 200
    assert [t["slug"] for t in client.get("/api/v1/tenants/").json()["results"]] == ["tenant-b"]


def test_revoked_expired_and_unknown_tokens_get_401(world):
    token, raw = create_token(world.member_a, "old")
    revoke_token(token)
    assert bearer(raw).get("/api/v1/clusters/").status_code == 401
    expiring, raw2 = create_token(world.member_a, "short", timezone.now() + datetime.timedelta(hours=1))
    APIToken.objects.filter(pk=expiring.pk).update(expires_at=timezone.now() - datetime.timedelta(seconds=1))
    assert bearer(raw2).get("/api/v1/clusters/").status_code == 401
    assert bearer("enc_nonsense").get("/api/v1/clusters/").status_code == 401


def test_token_names_are_unique_per_user_and_expiry_must_be_future(world, api):
    client = api(world.member_a)
    assert client.post("/api/v1/tokens/", {"name": "x"}, format="json").status_code == 201
    assert client.post("/api/v1/tokens/", {"name": "x"}, format="json").json()["name"]
    past = (timezone.now() - datetime.timedelta(days=1)).isoformat()
    assert "expires_at" in client.post("/api/v1/tokens/", {"name": "y", "expires_at": past}, format="json").json()


def test_tokens_can_be_revoked_in_the_ui(world, client):
    token, raw = create_token(world.member_a, "ui")
    client.force_login(world.member_a)
    assert client.post(f"/tokens/{token.pk}/revoke/").status_code == 302
    assert bearer(raw).get("/api/v1/clusters/").status_code == 401
    created = client.post("/tokens/", {"name": "fresh"})
    assert b"enc_" in created.content and b"will not be shown again" in created.content


def test_me_says_who_the_caller_is_with_which_token_in_a_fixed_number_of_queries(world, django_assert_max_num_queries):
    from tenants import services
    from tenants.choices import Role

    for i in range(20):  # more tenants do not cost more queries
        services.set_membership(services.create_tenant(f"t{i}", f"T {i}"), world.member_a, Role.MEMBER)
    _, raw = create_token(world.member_a, "laptop")
    with django_assert_max_num_queries(6):
        me = bearer(raw).get("/api/v1/me/").json()
    assert me["username"] == "member-a" and not me["is_site_admin"] and me["token"]["name"] == "laptop"
    assert {"slug": "tenant-a", "role": "member", "tenant": world.tenant_a.pk} in me["memberships"]
    assert len(me["memberships"]) == 21
    assert APIClient().get("/api/v1/me/").status_code in (401, 403)
