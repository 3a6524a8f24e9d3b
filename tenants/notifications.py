"""Emails to requesters at each step of a request, sent after the transaction commits."""

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse

SUBJECTS = {
    "cluster.submit": "submitted",
    "cluster.endorse": "endorsed by your PI",
    "cluster.approve": "approved",
    "cluster.reject": "rejected",
    "cluster.decommission": "being decommissioned",
    "cluster.withdraw": "withdrawn",
    "cluster.lease_expired": "lease expired",
    "cluster.ready": "is ready",
    "cluster.error": "failed to provision",
    "cluster.degraded": "is degraded (being repaired)",
    "cluster.retired": "retired",
}


def state_changed(cluster, action: str) -> None:
    """Tell the requester about a transition of their request."""
    what = SUBJECTS.get(action)
    recipient = cluster.requested_by.email
    if not what or not recipient:
        return
    url = settings.PORTAL_URL.rstrip("/") + reverse("frontend:cluster-detail", args=[cluster.pk])
    body = f"Your cluster request {cluster} is now {cluster.get_state_display()}.\n"
    if cluster.rejection_reason and action == "cluster.reject":
        body += f"\nReason: {cluster.rejection_reason}\n"
    if cluster.status_message and action in ("cluster.error", "cluster.degraded"):
        body += f"\nWhat happened: {cluster.status_message}\n"
    body += f"\nDetails and history: {url}\n"
    subject = f"[Enclave] {cluster} {what}"
    transaction.on_commit(
        lambda: send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [recipient], fail_silently=True)
    )
