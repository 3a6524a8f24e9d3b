"""Who must hear about what in the tenants' flows, and the words: every notice goes through notices.services.

Services call these inside their transaction; in-app notices are written with it and e-mail leaves on commit.
"""

from collections.abc import Callable

from django.conf import settings
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from notices.choices import NoticeKind as K
from notices.services import notify, settle
from tenants import progress, realizers, resize
from tenants.choices import ClusterState, ExtensionState, Role
from tenants.models import LeaseExtension, VirtualCluster

# Requests of apps above tenants that wait for a site admin (netpolicy: segment requests): name -> count (one
# query), registered from that app's AppConfig.ready(). The approvals counts and the digest add them in.
ADMIN_WAITING: dict[str, Callable[[], int]] = {}

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
AT_EXPIRY = ("When the lease ends the cluster is decommissioned: its VMs are deleted with everything stored on "
             "them, its SR-IOV functions, GPUs and addresses are released, and the request is retired.")  # fmt: skip


def owners(tenant_id, exclude=None) -> list:
    """The tenant's active owners (PIs), optionally without one user."""
    users = get_user_model().objects.filter(memberships__tenant=tenant_id, memberships__role=Role.OWNER, is_active=True)
    return [u for u in users if exclude is None or u.pk != exclude]


def site_admins() -> list:
    return list(get_user_model().objects.filter(is_staff=True, is_active=True))


def cluster_url(cluster) -> str:
    return reverse("frontend:cluster-detail", args=[cluster.pk])


def access_text(cluster) -> str:
    """How the requester reaches a ready cluster: login host, SSH command, every VM, what is not filtered."""
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


def state_changed(cluster, action: str, since: int | None = None) -> None:
    """Tell the requester about a transition of their request, and whoever must act next.

    `since` is the generation the site had observed before: a "ready" after a resize says what changed.
    """
    waited = ((K.ENDORSE, ClusterState.SUBMITTED), (K.APPROVE, ClusterState.ENDORSED))
    settle(cluster_url(cluster), [kind for kind, state in waited if cluster.state != state])  # acted on: not "new"
    what = SUBJECTS.get(action)
    resized = resize.applied(cluster, since, cluster.observed_generation) if action == "cluster.ready" and since else []
    if resized:
        notify([cluster.requested_by], K.CLUSTER, f"{cluster} resized: {', '.join(resized)}",
               resized_text(cluster, resized), cluster_url(cluster), about=cluster.tenant_id)  # fmt: skip
    elif what:
        body = f"Your cluster request {cluster} is now {cluster.get_state_display()}.\n"
        if cluster.rejection_reason and action == "cluster.reject":
            body += f"\nReason: {cluster.rejection_reason}\n"
        if cluster.status_message and action in ("cluster.error", "cluster.degraded"):
            body += f"\nWhat happened: {cluster.status_message}\n"
        if action == "cluster.ready":
            body += access_text(cluster)
        if action in ("cluster.submit", "cluster.endorse", "cluster.approve"):
            body += progress.text(cluster)
        notify(
            [cluster.requested_by], K.CLUSTER, f"{cluster} {what}", body, cluster_url(cluster), about=cluster.tenant_id
        )
    if cluster.state == ClusterState.SUBMITTED:
        notify(owners(cluster.tenant_id), K.ENDORSE, f"{cluster} waits for your endorsement",
               f"{cluster.requested_by} asks for {cluster.worker_count} workers until {cluster.lease_end}.\n"
               f"\nJustification: {cluster.justification}\n", cluster_url(cluster),
               about=cluster.tenant_id)  # fmt: skip
    elif cluster.state == ClusterState.ENDORSED:
        notify(site_admins(), K.APPROVE, f"{cluster} waits for your approval",
               f"{cluster} was endorsed by {cluster.endorsed_by} and waits for a site admin.\n",
               cluster_url(cluster), email=not digesting(), about=cluster.tenant_id)  # fmt: skip


def resized_text(cluster, changes: list[str]) -> str:
    """The e-mail of a resize once the site applied it: what changed, the cluster's size now, how to reach it."""
    lines = [f"The resize of your cluster {cluster} is applied; it is {cluster.get_state_display()} again.",
             "", "What changed:", *[f"    {change}" for change in changes], "",
             f"Now: {cluster.worker_count} workers + manager{' + login' if cluster.login_node else ''} = "
             f"{cluster.vm_count} VMs, {cluster.total_vcpus} vCPUs, {cluster.total_memory_gb} GB, "
             f"interconnect {cluster.get_interconnect_display()}."]  # fmt: skip
    return "\n".join(lines) + "\n" + access_text(cluster)


def segment_requested(segment) -> None:
    """A member's segment request waits for the site admins."""
    url = reverse("netpolicy:segment-detail", args=[segment.pk])
    notify(site_admins(), K.APPROVE, f"Segment {segment.tenant.slug}/{segment.name} waits for your approval",
           f"{segment.requested_by} asks for a {segment.kind} segment {segment.subnet}.\n", url,
           email=not digesting(), about=segment.tenant_id)  # fmt: skip


def segment_decided(segment, reason: str = "") -> None:
    """The tenant's owners and the requester hear that their segment was approved or rejected."""
    url = reverse("netpolicy:segment-detail", args=[segment.pk])
    people = owners(segment.tenant_id) + [segment.requested_by]
    notify(
        people,
        K.SEGMENT,
        f"Segment {segment.tenant.slug}/{segment.name} {segment.get_state_display().lower()}",
        f"The segment {segment.subnet} of {segment.tenant.slug} is now {segment.get_state_display()}.\n"
        + (f"\nReason: {reason}\n" if reason else ""),
        url,
        about=segment.tenant_id,
    )


def extension_requested(extension) -> None:
    """The tenant's other owners decide; with none, the site admins."""
    cluster = extension.cluster
    deciders = owners(cluster.tenant_id, exclude=extension.requested_by_id) or site_admins()
    notify(deciders, K.EXTENSION, f"{cluster}: lease extension to {extension.lease_end} waits for you",
           f"{extension.requested_by} asks to keep {cluster} until {extension.lease_end}, past the site's "
           f"maximum of {settings.LEASE_MAX_DAYS} days.\n\nJustification: {extension.justification}\n",
           cluster_url(cluster), about=cluster.tenant_id)  # fmt: skip


def extension_decided(extension) -> None:
    """The one who asked for the extension hears the decision."""
    cluster = extension.cluster
    settle(cluster_url(cluster), [K.EXTENSION])  # decided: the other deciders' notices are no longer "new"
    verdict = "approved" if extension.state == ExtensionState.APPROVED else "rejected"
    body = f"Your request to keep {cluster} until {extension.lease_end} was {verdict} by {extension.decided_by}.\n"
    if extension.decision_reason:
        body += f"\nReason: {extension.decision_reason}\n"
    notify([extension.requested_by], K.LEASE, f"{cluster} lease extension {verdict}", body, cluster_url(cluster),
           about=cluster.tenant_id)  # fmt: skip


def lease_warning(cluster, people) -> None:
    """Warn the requester and the owners that a lease ends soon, with the one-click extension."""
    days = (cluster.lease_end - timezone.localdate()).days
    body = (f"The lease of {cluster} ends on {cluster.lease_end}, in {days} days.\n\n{AT_EXPIRY}\n\n"
            f"To keep it, request an extension from the cluster page (one click: "
            f"{settings.PORTAL_URL.rstrip('/')}{cluster_url(cluster)}#lease).\n")  # fmt: skip
    notify(people, K.LEASE, f"{cluster} lease ends in {days} days", body, cluster_url(cluster) + "#lease",
           about=cluster.tenant_id)  # fmt: skip


def pending_approvals() -> dict:
    """What waits for the site admins: clusters to approve, segments, lease extensions (three queries)."""
    return {
        "clusters": VirtualCluster.objects.filter(state=ClusterState.ENDORSED).count(),
        **{name: count() for name, count in list(ADMIN_WAITING.items())},
        "extensions": LeaseExtension.objects.waiting().count(),
    }


def digesting() -> bool:
    """Whether so many items wait that the admins get the periodic digest instead of one mail each."""
    waiting = VirtualCluster.objects.filter(state=ClusterState.ENDORSED).count()
    return waiting > settings.NOTICE_DIGEST_THRESHOLD


def admin_digest() -> int:
    """One digest to each site admin when more than NOTICE_DIGEST_THRESHOLD items wait; returns mails sent."""
    counts = pending_approvals()
    total = sum(counts.values())
    if total <= settings.NOTICE_DIGEST_THRESHOLD:
        return 0
    body = (f"{total} items wait for a site admin: {counts['clusters']} cluster requests, "
            f"{counts.get('segments', 0)} segment requests, {counts['extensions']} lease extensions.\n")  # fmt: skip
    return notify(site_admins(), K.DIGEST, f"{total} requests wait for approval", body, reverse("frontend:approvals"),
                  about=None)  # fmt: skip
