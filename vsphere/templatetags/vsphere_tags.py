"""Template helpers of the vsphere app: the VF capacity chart and the cluster page's vSphere panel."""

import re

from django import template

from tenants.access import is_site_admin
from tenants.choices import ClusterState, SiteKind
from vsphere.models import OperationLog, VCenter, VFAssignment
from vsphere.plan.network import PREVIEW_STATES

register = template.Library()

# Chart geometry (px): a label column, then one bar per PF scaled to the largest PF.
LABEL_WIDTH = 230
BAR_WIDTH = 420
ROW_HEIGHT = 22
BAR_HEIGHT = 14
HEADER_HEIGHT = 26
LEGEND_HEIGHT = 26
NUMBERS_WIDTH = 130
# The operation log polls while the reconciler is working on the cluster.
ACTIVE_STATES = {ClusterState.APPROVED, ClusterState.PROVISIONING, ClusterState.DECOMMISSIONING}
LOG_TAIL = 50


def chart_rows(hosts: list[dict]) -> tuple[list[dict], int]:
    """Lay out one header row per host and one bar per PF; returns the rows and the chart height."""
    longest = max((pf["total"] for host in hosts for pf in host["pfs"]), default=0) or 1
    rows, y = [], LEGEND_HEIGHT
    for host in hosts:
        rows.append({"kind": "host", "y": y + HEADER_HEIGHT - 8, "host": host})
        y += HEADER_HEIGHT
        for pf in host["pfs"]:
            used_w = round(BAR_WIDTH * pf["used"] / longest, 1)
            free_w = round(BAR_WIDTH * pf["free"] / longest, 1)
            rows.append({
                "kind": "pf", "y": y, "bar_y": y + (ROW_HEIGHT - BAR_HEIGHT) / 2, "text_y": y + ROW_HEIGHT - 6,
                "pf": pf, "used_w": used_w, "free_x": LABEL_WIDTH + used_w, "free_w": free_w,
                "numbers_x": LABEL_WIDTH + BAR_WIDTH + 10,
            })  # fmt: skip
            y += ROW_HEIGHT
    return rows, y + 6


@register.inclusion_tag("vsphere/partials/vf_chart.html")
def vf_chart(vcenter_report: dict) -> dict:
    """Inline SVG bars of used (filled) and free (outlined) VFs per PF, grouped by host."""
    rows, height = chart_rows(vcenter_report["hosts"])
    return {
        "report": vcenter_report,
        "rows": rows,
        "height": height,
        "width": LABEL_WIDTH + BAR_WIDTH + NUMBERS_WIDTH,
        "label_width": LABEL_WIDTH,
        "bar_height": BAR_HEIGHT,
        "bar_width": BAR_WIDTH,
    }


@register.simple_tag(takes_context=True)
def cluster_vsphere(context, cluster) -> dict:
    """What the cluster page shows about vSphere: plan preview for admins, VFs, live operation log."""
    user = context["request"].user
    placed_here = cluster.site_kind == SiteKind.VSPHERE
    if not placed_here and (cluster.site_kind or not VCenter.objects.exists()):
        return {"enabled": False}
    operations = list(OperationLog.objects.filter(cluster=cluster).order_by("-id")[:LOG_TAIL])  # newest first
    return {
        "enabled": True,
        "show_plan": is_site_admin(user) and cluster.state in PREVIEW_STATES,
        "polling": cluster.state in ACTIVE_STATES or cluster.work_pending,
        "operations": operations,
        "vfs": VFAssignment.objects.filter(cluster=cluster).select_related("pf__host").order_by("node_name"),
    }


# A reconciler step as a researcher reads it: a filter being rewritten is progress, not "rules missing".
PROGRESS_WORDS = (
    (re.compile(r"traffic filter differs from the tenant policy \((\d+) rules missing, (\d+) not in the policy\)"),
     r"bringing the traffic filter up to date with the tenant policy (\1 rules to add, \2 to remove)"),
    (re.compile(r"no traffic filter; apply the tenant policy \((\d+) rules\)"),
     r"applying the tenant policy as the traffic filter (\1 rules)"),
)  # fmt: skip


@register.filter
def as_progress(step: str, admin: bool = False) -> str:
    """A step's text for its reader: site admins read the reconciler's words, others progress."""
    if admin:
        return step
    for pattern, words in PROGRESS_WORDS:
        step = pattern.sub(words, step)
    return step
