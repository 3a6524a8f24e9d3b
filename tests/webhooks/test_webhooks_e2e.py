"""With the real Celery worker: a change commits, the outbox wakes, the delivery goes out through Celery and
is retried with backoff until the receiver recovers."""

import pytest

from tenants import services as tenant_services
from tests.conftest import service_data
from webhooks.choices import DeliveryState
from webhooks.models import Delivery

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_a_state_change_goes_out_through_the_worker_and_is_retried_until_the_receiver_recovers(
    hook_a, lab_worker, world, receiver, wait_for
):
    hook_a.events = ["cluster.state_changed"]
    hook_a.save()
    receiver.script = [(503, 0, {}), (502, 0, {})]
    tenant_services.create_cluster(world.tenant_a, world.member_a, service_data(), submit=True)
    done = lambda: Delivery.objects.filter(webhook=hook_a, state=DeliveryState.SUCCEEDED).first()  # noqa: E731
    delivered = wait_for(done, 60)
    assert delivered, lab_worker.log_path.read_text()[-3000:]
    assert delivered.attempts == 3 and len(receiver.received) == 3
    assert all(r.verifies_with(hook_a.plain_secret) for r in receiver.received)
    assert len({r.headers["webhook-id"] for r in receiver.received}) == 1
    assert receiver.received[-1].message["data"]["to_state"] == "submitted"
