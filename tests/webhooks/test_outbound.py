"""The outbound rules: which URLs a webhook may have, and which resolved addresses a delivery may reach."""

import pytest

from webhooks import delivery, outbound, services
from webhooks.choices import DeliveryState

REFUSED_URLS = [
    "http://hooks.example.org/x",  # plain http
    "https://127.0.0.1/x",
    "https://[::1]/x",
    "https://[::ffff:127.0.0.1]/x",
    "https://10.0.0.1/x",
    "https://100.64.0.1/x",  # shared (CGNAT) space
    "https://169.254.169.254/latest/meta-data/",
    "https://0.0.0.0/x",
    "https://user:pw@hooks.example.org/x",
    "https://hooks.example.org/x#frag",
    "https://hooks.example.org/x y",
    "ftp://hooks.example.org/x",
    "https:///x",
]


@pytest.mark.parametrize("url", REFUSED_URLS)
def test_a_url_outside_the_rules_is_refused(url):
    with pytest.raises(ValueError):
        outbound.check_url(url)


def test_a_public_https_url_is_accepted():
    outbound.check_url("https://hooks.example.org:8443/enclave?token=abc")


def test_a_host_name_that_resolves_to_loopback_is_refused_at_delivery():
    with pytest.raises(outbound.Refused, match="loopback, private or link-local"):
        outbound.resolve("localhost", 443)


@pytest.mark.django_db(transaction=True)
def test_a_delivery_to_a_name_resolving_to_loopback_fails_for_good_without_a_request(world, receiver, settings):
    settings.WEBHOOK_ALLOW_HTTP = True
    port = receiver.server.server_address[1]
    hook, _ = services.create_webhook(world.owner_a, world.tenant_a, {
        "name": "rebind", "url": f"http://localhost:{port}/x", "events": ["cluster.state_changed"]})  # fmt: skip
    done = delivery.attempt(services.send_test(world.owner_a, hook).pk)
    assert done.state == DeliveryState.FAILED and done.attempts == 1 and "resolves to a loopback" in done.last_error
    assert receiver.received == []
