"""Fixtures of the webhook tests: a real receiver, lab settings (loopback and http allowed), a hook."""

import pytest

from tests.webhooks.receiver import Receiver
from webhooks import services

LAB_ENV = {
    "ENCLAVE_WEBHOOK_ALLOW_PRIVATE_TARGETS": "1",
    "ENCLAVE_WEBHOOK_ALLOW_HTTP": "1",
    "ENCLAVE_WEBHOOK_TIMEOUT": "2",
    "ENCLAVE_WEBHOOK_BACKOFF_BASE": "1",
    "ENCLAVE_WEBHOOK_BACKOFF_CAP": "2",
}


@pytest.fixture
def receiver():
    running = Receiver().start()
    yield running
    running.stop()


@pytest.fixture
def lab(settings, monkeypatch):
    """This process and any worker started after it: the receiver on 127.0.0.1 over http is allowed."""
    for key, value in LAB_ENV.items():
        monkeypatch.setenv(key, value)
    settings.WEBHOOK_ALLOW_PRIVATE_TARGETS = settings.WEBHOOK_ALLOW_HTTP = True
    settings.WEBHOOK_TIMEOUT, settings.WEBHOOK_BACKOFF_BASE, settings.WEBHOOK_BACKOFF_CAP = 2.0, 1.0, 2.0
    return settings


@pytest.fixture
def lab_worker(lab, celery_worker):
    """The real Celery worker, started with the lab settings."""
    return celery_worker


@pytest.fixture
def hook_a(lab, world, receiver):
    """Tenant A's webhook on the receiver for cluster state changes, and its secret."""
    hook, secret = services.create_webhook(world.owner_a, world.tenant_a, {
        "name": "ci", "url": receiver.url, "events": ["cluster.state_changed", "approval.needed"]})  # fmt: skip
    hook.plain_secret = secret
    return hook
