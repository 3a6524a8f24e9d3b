"""Login lockout, API throttles, token scopes and lifetimes, revocation, and who may see metrics and schema."""

import datetime

import pytest
from axes.models import AccessAttempt
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from agents import services as agent_services
from audit.models import AuditEvent
from tests.access import MATRIX
from tests.test_access_matrix import Objects, url_for
from users.models import APIToken, TokenScope
from users.services import create_token

pytestmark = pytest.mark.django_db


def bearer(raw, address="192.0.2.10"):
    client = APIClient(REMOTE_ADDR=address)
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    return client


def login(client, path, username, password, address="192.0.2.20"):
    return client.post(path, {"username": username, "password": password}, REMOTE_ADDR=address)


# ---------------------------------------------------------------- login forms (django-axes)


@pytest.mark.parametrize("path", ["/login/", "/admin/login/"])
def test_thirty_wrong_passwords_lock_the_account_from_that_address(world, client, path):
    statuses = [login(client, path, "site-admin", f"wrong-{n}").status_code for n in range(30)]
    assert statuses[:4] == [200] * 4 and set(statuses[5:]) == {429}
    locked = login(client, path, "site-admin", "pw-site-admin")
    assert locked.status_code == 429 and "Try again in 15 minutes" in locked.content.decode()
    assert locked["Retry-After"] == "900"


def test_an_attacker_elsewhere_cannot_lock_an_admin_out(world, client):
    for n in range(10):
        login(client, "/login/", "site-admin", f"wrong-{n}", address="203.0.113.66")
    assert login(client, "/login/", "site-admin", "pw-site-admin", address="192.0.2.1").status_code == 302


def test_the_lockout_ends_after_the_cool_off(world, client):
    for n in range(6):
        login(client, "/login/", "member-a", f"wrong-{n}")
    assert login(client, "/login/", "member-a", "pw-member-a").status_code == 429
    AccessAttempt.objects.update(attempt_time=timezone.now() - datetime.timedelta(minutes=16))
    assert login(client, "/login/", "member-a", "pw-member-a").status_code == 302


# ---------------------------------------------------------------- API throttles


def test_failed_bearer_tokens_are_throttled_per_address(world):
    statuses = [bearer(f"enc_guess{n}").get("/api/v1/clusters/").status_code for n in range(25)]
    assert statuses[:20] == [401] * 20 and set(statuses[20:]) == {429}
    _, raw = create_token(world.member_a, "ci")
    assert bearer(raw).get("/api/v1/clusters/").status_code == 429
    assert bearer(raw, address="192.0.2.99").get("/api/v1/clusters/").status_code == 200


def test_agent_joins_are_throttled_per_address(world):
    client = APIClient(REMOTE_ADDR="192.0.2.30")
    body = {"token": "encj_nonsense", "hostname": "n1", "capabilities": {}, "interfaces": []}
    statuses = [client.post("/api/v1/agents/join", body, format="json").status_code for _ in range(22)]
    assert 429 not in statuses[:20] and statuses[-1] == 429
    assert "Retry-After" in client.post("/api/v1/agents/join", body, format="json")


def test_api_requests_are_throttled_per_user(world):
    _, raw = create_token(world.member_a, "ci")
    with override_settings(API_RATES={"user": "5/minute", "anon": "5/minute", "join": "5/minute",
                                      "bearer_failure": "5/minute"}):  # fmt: skip
        statuses = [bearer(raw).get("/api/v1/clusters/").status_code for _ in range(7)]
    assert statuses == [200] * 5 + [429] * 2


# ---------------------------------------------------------------- scopes and lifetimes


def test_tokens_get_the_default_lifetime_and_never_exceed_the_maximum(world, api):
    client = api(world.member_a)
    created = client.post("/api/v1/tokens/", {"name": "laptop"}, format="json").json()
    expires = datetime.datetime.fromisoformat(created["expires_at"])
    assert created["scope"] == "read"
    assert abs(expires - (timezone.now() + datetime.timedelta(days=30))) < datetime.timedelta(minutes=1)
    too_long = (timezone.now() + datetime.timedelta(days=400)).isoformat()
    refused = client.post("/api/v1/tokens/", {"name": "forever", "expires_at": too_long}, format="json")
    assert refused.status_code == 400 and "365 days" in refused.json()["expires_at"][0]


def test_a_token_never_mints_a_broader_or_longer_lived_token(world):
    parent, raw = create_token(world.member_a, "two-hours", timezone.now() + datetime.timedelta(hours=2),
                               scope=TokenScope.WRITE)  # fmt: skip
    client = bearer(raw)
    child = client.post("/api/v1/tokens/", {"name": "child", "scope": "write"}, format="json")
    assert child.status_code == 201
    assert datetime.datetime.fromisoformat(child.json()["expires_at"]) <= parent.ends_at
    later = (parent.ends_at + datetime.timedelta(hours=1)).isoformat()
    refused = client.post("/api/v1/tokens/", {"name": "longer", "expires_at": later}, format="json")
    assert refused.status_code == 400 and "outlives" in refused.json()["expires_at"][0]
    _, read_raw = create_token(world.member_a, "reader", scope=TokenScope.READ)
    assert bearer(read_raw).post("/api/v1/tokens/", {"name": "w", "scope": "write"}, format="json").status_code == 403
    assert APIToken.objects.filter(user=world.member_a).count() == 3


def test_tokens_older_than_the_maximum_lifetime_stop_working(world):
    token, raw = create_token(world.member_a, "old")
    APIToken.objects.filter(pk=token.pk).update(expires_at=None, created=timezone.now() - datetime.timedelta(days=366))
    assert bearer(raw).get("/api/v1/clusters/").status_code == 401


def test_a_read_token_cannot_write_anywhere_in_the_api(world):
    objects = Objects(world)
    _, raw = create_token(world.admin, "admin-reader", scope=TokenScope.READ)
    client = bearer(raw)
    events = AuditEvent.objects.count()
    failures = []
    for name in MATRIX:
        url = url_for(name, getattr(objects, MATRIX[name][2]) if MATRIX[name][2] else None)
        if not url.startswith("/api/"):
            continue
        for method in ("post", "put", "patch", "delete"):
            status = getattr(client, method)(url, {}, format="json").status_code
            if status != 403:
                failures.append(f"{method.upper()} {url}: {status}")
    assert not failures, failures
    assert client.get("/api/v1/clusters/").status_code == 200
    assert AuditEvent.objects.count() == events


def test_a_write_token_writes(world):
    _, raw = create_token(world.owner_a, "writer", scope=TokenScope.WRITE)
    response = bearer(raw).post("/api/v1/tokens/", {"name": "another"}, format="json")
    assert response.status_code == 201


# ---------------------------------------------------------------- revocation


def test_a_password_change_revokes_tokens_and_other_sessions(world, client):
    _, raw = create_token(world.member_a, "ci")
    client.force_login(world.member_a)
    assert client.get("/api/v1/clusters/").status_code == 200
    world.member_a.set_password("a-new-long-passphrase")
    world.member_a.save()
    assert bearer(raw).get("/api/v1/clusters/").status_code == 401
    assert client.get("/api/v1/clusters/").status_code in (401, 403)


def test_deactivation_revokes_tokens_and_sessions(world, client):
    _, raw = create_token(world.member_a, "ci")
    client.force_login(world.member_a)
    world.member_a.is_active = False
    world.member_a.save()
    assert bearer(raw).get("/api/v1/clusters/").status_code == 401
    assert client.get("/api/v1/clusters/").status_code in (401, 403)


# ---------------------------------------------------------------- metrics, schema, health


@override_settings(METRICS_TOKEN="prometheus-scrape-secret")
def test_metrics_need_an_admin_or_the_scrape_token(world, client):
    assert client.get("/metrics").status_code == 401
    assert client.get("/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 401
    client.force_login(world.owner_a)
    assert client.get("/metrics").status_code == 401
    scraped = APIClient().get("/metrics", headers={"Authorization": "Bearer prometheus-scrape-secret"})
    assert scraped.status_code == 200 and b"enclave_http_requests_total" in scraped.content
    client.force_login(world.admin)
    assert client.get("/metrics").status_code == 200


def test_the_schema_and_docs_are_for_site_admins_by_default(world, client):
    for path in (reverse("schema"), reverse("api-docs")):
        assert client.get(path).status_code in (401, 403)
        client.force_login(world.member_a)
        assert client.get(path).status_code == 403
        client.force_login(world.admin)
        assert client.get(path).status_code == 200
        client.logout()


def test_healthz_shows_anonymous_callers_the_status_only(world, client, redis_client):
    body = client.get("/healthz").json()
    assert set(body) == {"status"}
    client.force_login(world.admin)
    assert "checks" in client.get("/healthz").json()


def test_join_still_works_under_the_throttle(world):
    pool = agent_services.create_pool("pool-t")
    _, raw = agent_services.create_join_token(pool)
    body = {"token": raw, "hostname": "node-t", "capabilities": {}, "interfaces": []}
    assert APIClient(REMOTE_ADDR="192.0.2.31").post("/api/v1/agents/join", body, format="json").status_code == 201
