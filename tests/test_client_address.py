"""Behind the documented reverse proxy each client keeps its own address: lockouts, throttles, audit."""

import json

import pytest
from axes.models import AccessAttempt
from django.test import RequestFactory, override_settings
from rest_framework.test import APIClient

from audit.models import AuditEvent
from core.proxies import client_address, parse_networks
from tests.conftest import cluster_data
from users.services import create_token

pytestmark = pytest.mark.django_db
PROXY = "10.0.0.2"
BEHIND_PROXY = override_settings(TRUSTED_PROXIES=parse_networks(["10.0.0.0/24", "fd00::/64"]))


def _address(remote, forwarded=None):
    headers = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded is not None else {}
    return client_address(RequestFactory().get("/", REMOTE_ADDR=remote, **headers))


def test_without_trusted_proxies_x_forwarded_for_is_ignored():
    assert _address("198.51.100.7", "192.0.2.1") == "198.51.100.7"


@BEHIND_PROXY
@pytest.mark.parametrize(("remote", "forwarded", "client"), [
    (PROXY, "198.51.100.7", "198.51.100.7"),  # the proxy's own hop
    (PROXY, "192.0.2.66, 198.51.100.7", "198.51.100.7"),  # a made-up hop sent by the client is left of it
    (PROXY, "198.51.100.7, 10.0.0.3", "198.51.100.7"),  # two proxies of ours
    (PROXY, "not-an-address, 10.0.0.3", "10.0.0.3"),  # a hop no proxy of ours wrote: the last trusted one
    (PROXY, "", PROXY),  # a probe of the proxy itself
    ("198.51.100.9", "192.0.2.1", "198.51.100.9"),  # X-Forwarded-For straight from a client: ignored
    ("fd00::5", "2001:db8::7", "2001:db8::7"),
    (PROXY, "::ffff:198.51.100.7", "198.51.100.7"),  # one key per client however it is spelled
])  # fmt: skip
def test_the_client_is_the_right_most_address_no_trusted_proxy_wrote(remote, forwarded, client):
    assert _address(remote, forwarded) == client


def test_a_malformed_trusted_proxy_is_a_start_up_error():
    with pytest.raises(ValueError, match="ENCLAVE_TRUSTED_PROXIES: '10.0.0.0/33'"):
        parse_networks(["10.0.0.0/33"])


def _login(client, username, password, address):
    body = {"username": username, "password": password}
    return client.post("/login/", body, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=address)


@BEHIND_PROXY
def test_five_wrong_passwords_through_the_proxy_lock_out_only_that_client(world, client):
    statuses = [_login(client, "site-admin", f"wrong-{n}", "203.0.113.66").status_code for n in range(6)]
    assert statuses[-1] == 429
    assert _login(client, "site-admin", "pw-site-admin", "192.0.2.1").status_code == 302


@BEHIND_PROXY
def test_failed_tokens_through_the_proxy_throttle_only_that_client(world):
    guesser = APIClient(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.66")
    guesser.credentials(HTTP_AUTHORIZATION="Bearer enc_guess")
    assert {guesser.get("/api/v1/clusters/").status_code for _ in range(21)} == {401, 429}
    _, raw = create_token(world.member_a, "ci")
    honest = APIClient(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="192.0.2.5")
    honest.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    assert honest.get("/api/v1/clusters/").status_code == 200


@BEHIND_PROXY
def test_the_audit_records_the_clients_address_not_the_proxys(world, client):
    client.force_login(world.member_a)
    body = json.dumps(cluster_data(tenant=world.tenant_a.pk))
    response = client.post("/api/v1/clusters/", body, content_type="application/json", REMOTE_ADDR=PROXY,
                           HTTP_X_FORWARDED_FOR="192.0.2.1, 198.51.100.7")  # fmt: skip
    assert response.status_code == 201
    assert AuditEvent.objects.get(action="cluster.create").source_ip == "198.51.100.7"


# ---------------------------------------------------------------- the per-user bound across addresses


@BEHIND_PROXY
@override_settings(LOGIN_USER_FAILURE_LIMIT=3, LOGIN_USER_SLOWDOWN_SECONDS=7)
def test_guesses_from_many_addresses_slow_a_username_down_without_locking_it(world, client):
    for n in range(3):
        assert _login(client, "site-admin", "wrong", f"203.0.113.{n + 1}").status_code == 200
    assert _login(client, "site-admin", "pw-site-admin", "192.0.2.50").status_code == 302  # this window's try
    paced = _login(client, "site-admin", "wrong", "203.0.113.99")
    assert paced.status_code == 429 and paced["Retry-After"] == "7"
    assert "one try every 7 seconds" in paced.content.decode()


@BEHIND_PROXY
@override_settings(LOGIN_USER_FAILURE_LIMIT=3, LOGIN_USER_SLOWDOWN_SECONDS=7)
def test_the_owner_signs_in_from_an_address_they_used_before_while_others_are_paced(world, client):
    assert _login(client, "site-admin", "pw-site-admin", "192.0.2.1").status_code == 302
    client.logout()
    for n in range(4):
        _login(client, "site-admin", "wrong", f"203.0.113.{n + 1}")
    assert _login(client, "site-admin", "wrong", "203.0.113.77").status_code == 429
    assert _login(client, "site-admin", "pw-site-admin", "192.0.2.1").status_code == 302


@BEHIND_PROXY
@override_settings(LOGIN_USER_FAILURE_LIMIT=3, LOGIN_USER_SLOWDOWN_SECONDS=7)
def test_paced_and_locked_tries_do_not_count_as_failures(world, client):
    for n in range(3):
        _login(client, "member-a", "wrong", f"203.0.113.{n + 1}")
    for _ in range(5):
        _login(client, "member-a", "wrong", "203.0.113.200")  # the first is this window's try, then paced
    assert AccessAttempt.objects.get(username="member-a", ip_address="203.0.113.200").failures_since_start == 1
