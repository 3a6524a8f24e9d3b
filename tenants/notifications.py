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


def access_text(cluster) -> str:
    """How the requester reaches a ready cluster: login host, SSH command, every VM, what is not filtered."""
    from tenants import realizers

    view = realizers.for_cluster(cluster).observe(cluster)
    lines = []
    if view.login:
        lines += [f"\nLog in to {view.login['host_name']} ({view.login['address']}):",
                  f"    {view.ssh_command(cluster.requested_by.username)}"]  # fmt: skip
    if view.nodes:
        lines.append("\nVMs:")
        for n in view.nodes:
            lines.append(f"    {n['name']:<32} {n['role']:<14} {n['host_name']}  {', '.join(n['addresses'])}")
            if n.get("devices"):
                lines.append(f"    {'':<32} with {', '.join(n['devices'])}")
    if view.unprotected:
        lines.append("\nNot filtered by the tenant's firewall:")
        lines += [f"    - {line}" for line in view.unprotected]
    return "\n".join(lines) + ("\n" if lines else "")


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
    if action == "cluster.ready":
        body += access_text(cluster)
    body += f"\nDetails and history: {url}\n"
    subject = f"[Enclave] {cluster} {what}"
    transaction.on_commit(
        lambda: send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [recipient], fail_silently=True)
    )
