"""Plan previews, the worker's side: a dry run against vCenter, stored on the queued preview.

Pages and the API ask through services.request_preview(); a preview is reused while it is fresh for
the cluster's generation (FRESH), so asking again costs nothing; one still queued after LOST is taken
as lost (a killed worker) and asked for again.
"""

import datetime
from dataclasses import replace

from django.utils import timezone

from core.errors import ServiceError
from tenants.choices import ClusterState
from tenants.models import VirtualCluster
from vsphere.choices import PlanStatus
from vsphere.errors import VSphereError
from vsphere.models import PlanPreview, placement_of
from vsphere.placement.reserve import default_vcenter
from vsphere.plan import preflight
from vsphere.plan.capacity import preflight_inventory
from vsphere.reconcile import converge
from vsphere.reconcile.intent import cluster_intent, inventory, vcenter_config
from vsphere.vim.driver import Driver

FRESH = datetime.timedelta(seconds=60)
LOST = datetime.timedelta(minutes=5)
HTTP_TIMEOUT = 20  # seconds: a preview should answer soon; the reconciler's own timeout is longer


def compute(preview_id: int) -> PlanPreview | None:
    """Worker side: the dry run, stored on the preview (reads vCenter, changes nothing, takes nothing)."""
    preview = PlanPreview.objects.select_related("cluster__tenant", "cluster__placement__site")
    preview = preview.filter(pk=preview_id).first()
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
        vcenter = placement_of(cluster).site or default_vcenter(cluster)
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
