"""End to end through a real Celery worker process on the real Redis broker."""

import pytest
from rest_framework.test import APIClient

from audit.context import ActorKind
from audit.models import AuditEvent
from tests.conftest import cluster_data

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]


def as_user(user, request_id):
    client = APIClient()
    client.force_authenticate(user)
    client.credentials(HTTP_X_REQUEST_ID=request_id)
    return client


def test_submit_endorse_approve_runs_the_reconciler_under_the_approvals_request_id(world, celery_worker, wait_for):
    body = cluster_data(tenant=world.tenant_a.pk, submit=True)
    pk = as_user(world.member_a, "e2e-submit-0001").post("/api/v1/clusters/", body, format="json").json()["id"]
    assert as_user(world.owner_a, "e2e-endorse-001").post(f"/api/v1/clusters/{pk}/endorse/").status_code == 200
    assert as_user(world.admin, "e2e-approve-001").post(f"/api/v1/clusters/{pk}/approve/").status_code == 200

    def reconciled():
        return AuditEvent.objects.filter(object_id=str(pk), actor_kind=ActorKind.WORKER).first()

    event = wait_for(reconciled, 60)
    assert event is not None, celery_worker.log_path.read_text()[-3000:]
    approve = AuditEvent.objects.get(object_id=str(pk), action="cluster.approve")
    assert approve.client_request_id == "e2e-approve-001" and approve.actor_label == "site-admin"
    assert event.request_id == approve.request_id != "e2e-approve-001"  # the server's id, never the client's
    assert event.actor_label.startswith("worker:")
    actions = list(AuditEvent.objects.filter(object_id=str(pk), object_type="tenants.virtualcluster")
                   .order_by("id").values_list("action", flat=True))  # fmt: skip
    assert actions[:4] == ["cluster.create", "cluster.submit", "cluster.endorse", "cluster.approve"]
