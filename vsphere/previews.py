"""Plan previews as queued jobs: pages and the API ask, the worker reads vCenter, the result is stored.

A preview is reused while it is fresh for the cluster's generation (FRESH), so asking again costs
nothing; one still queued after LOST is taken as lost (a killed worker) and asked for again.
"""

import datetime
from dataclasses import replace

from django.db import transaction
from django.utils import timezone

from core.errors import ServiceError
from tenants.choices import ClusterState
from tenants.models import VirtualCluster
from vsphere import converge, preflight
from vsphere.capacity import preflight_inventory
from vsphere.choices import PlanStatus
from vsphere.driver import Driver
from vsphere.errors import VSphereError
from vsphere.intent import cluster_intent, inventory, vcenter_config
from vsphere.models import PlanPreview
from vsphere.realizer import VSphereRealizer

FRESH = datetime.timedelta(seconds=60)
LOST = datetime.timedelta(minutes=5)
HTTP_TIMEOUT = 20  # seconds: a preview should answer soon; the reconciler's own timeout is longer


def request(cluster: VirtualCluster) -> PlanPreview:
    """The cluster's current preview, queueing a new one when there is none fresh for its generation."""
    now = timezone.now()
    latest = PlanPreview.objects.filter(cluster=cluster, generation=cluster.generation).first()
    if latest is not None:
        waiting = latest.status == PlanStatus.QUEUED and now - latest.requested < LOST
        if waiting or (latest.finished and now - latest.finished < FRESH):
            return latest
    with transaction.atomic():
        preview = PlanPreview.objects.create(cluster=cluster, generation=cluster.generation)
        transaction.on_commit(lambda: _queue(preview.pk))
    return preview


def _queue(preview_id: int) -> None:
    from vsphere.tasks import compute_plan

    compute_plan.delay(preview_id)


def compute(preview_id: int) -> PlanPreview | None:
    """Worker side: the dry run, stored on the preview (reads vCenter, changes nothing, takes nothing)."""
    preview = PlanPreview.objects.select_related("cluster__tenant", "cluster__site").filter(pk=preview_id).first()
    if preview is None or preview.status != PlanStatus.QUEUED:
        return preview
    vcenter, changes, error = dry_run(preview.cluster)
    preview.vcenter, preview.error, preview.finished = vcenter, error, timezone.now()
    preview.changes = [{"kind": c.kind.value, "target": c.target, "detail": c.detail} for c in changes]
    preview.status = PlanStatus.FAILED if error else PlanStatus.READY
    preview.save(update_fields=["vcenter", "error", "finished", "changes", "status"])
    return preview


def dry_run(cluster: VirtualCluster) -> tuple[str, list, str]:
    """(vCenter name, changes, error) of a dry run for one cluster."""
    try:
        vcenter = cluster.site or VSphereRealizer().default_site(cluster)
    except ServiceError as exc:
        return "", [], str(exc.detail)
    if vcenter is None:
        return "", [], "No vCenter is registered for this site."
    if cluster.state == ClusterState.REJECTED:
        return vcenter.name, [], "A rejected request has nothing to realize."
    try:
        intent = cluster_intent(cluster, vcenter)
        preflight.check_cluster(intent, inventory(vcenter))
        with Driver(replace(vcenter_config(vcenter), http_timeout=HTTP_TIMEOUT)) as drv:
            return vcenter.name, converge.preview(drv, intent, preflight_inventory(vcenter)), ""
    except (ServiceError, VSphereError, OSError) as exc:
        detail = exc.detail if isinstance(exc, ServiceError) else str(exc)
        return vcenter.name, [], detail if isinstance(detail, str) else "; ".join(detail)
