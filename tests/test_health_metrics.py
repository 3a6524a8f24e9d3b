"""/healthz and /metrics report real component state."""

import pytest

from portal.tasks import heartbeat

pytestmark = pytest.mark.django_db


def test_healthz_reports_database_redis_and_worker(world, client, redis_client):
    client.force_login(world.admin)
    redis_client.delete("enclave:worker-heartbeat")
    body = client.get("/healthz").json()
    assert body["checks"]["database"]["ok"] and body["checks"]["redis"]["ok"]
    assert not body["checks"]["worker"]["ok"] and client.get("/healthz").status_code == 503
    heartbeat()
    assert client.get("/healthz").status_code == 200


def test_metrics_expose_requests_queue_depth_and_states(world, client):
    from tenants import services
    from tests.conftest import service_data

    services.create_cluster(world.tenant_a, world.member_a, service_data(), submit=True)
    client.get("/healthz")
    client.force_login(world.admin)
    text = client.get("/metrics").content.decode()
    assert 'enclave_clusters{state="submitted"} 1.0' in text
    assert "enclave_queue_depth" in text and "enclave_http_requests_total" in text
    assert "enclave_http_request_seconds_bucket" in text
