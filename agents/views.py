"""Site-admin pages: node pools, nodes with their state, last report, errors and tenants."""

from django.contrib import messages
from django.db.models import F
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from agents import desired, services
from agents.choices import NodeStatus, TenantNetworkStatus
from agents.models import Node, NodePool
from core.pages import render_page
from core.paging import paginate
from tenants.access import staff_member_required
from tenants.models import Tenant


@staff_member_required
def node_list(request):
    """Nodes with their status, one page at a time, filtered by pool, status or name; live with htmx."""
    nodes = (Node.objects.select_related("pool").defer("last_report", "desired_node")
             .annotate(pool_schema=F("pool__document__schema")).order_by("pool__name", "name"))  # fmt: skip
    if request.GET.get("pool", "").isdigit():
        nodes = nodes.filter(pool_id=int(request.GET["pool"]))
    if request.GET.get("status") in NodeStatus.values:
        nodes = nodes.filter(status=request.GET["status"])
    if request.GET.get("q"):
        nodes = nodes.filter(name__icontains=request.GET["q"])
    pager = paginate(request, nodes)
    for node in pager.rows:  # which nodes hold their pool's schema back, or cannot read it
        node.wire_note = desired.wire_note(node.wire_reads, node.pool.name, node.pool_schema)
    pools = paginate(request, NodePool.objects.prefetch_related("subnets"), param="pools")
    context = {"nodes": pager.rows, "pager": pager, "pools": pools, "statuses": NodeStatus.choices,
               "all_pools": NodePool.objects.values_list("pk", "name")[:200],
               "created_token": request.session.pop("join_token", None)}  # fmt: skip
    return render_page(request, "agents/node_list.html", context, "agents/partials/node_table.html")


@staff_member_required
def node_detail(request, pk):
    """A node, its capabilities and the tenants it reported; live while it has not applied its generation."""
    nodes = Node.objects.select_related("pool").prefetch_related("credentials")
    node = get_object_or_404(nodes.annotate(pool_schema=F("pool__document__schema")), pk=pk)
    node.wire_note = desired.wire_note(node.wire_reads, node.pool.name, node.pool_schema)
    reported = sorted((node.last_report or {}).get("tenants", {}).items(), key=lambda item: _as_int(item[0]))
    pager = paginate(request, reported)
    ids = [_as_int(tid) for tid, _ in pager.rows]
    tenants = {t.pk: t for t in Tenant.objects.filter(pk__in=ids).only("pk", "slug", "name")}
    labels = dict(TenantNetworkStatus.choices)
    rows = [{"tenant": tenants.get(_as_int(tid)), "id": tid, "status": entry.get("status", ""),
             "label": labels.get(entry.get("status"), entry.get("status", "")), "errors": entry.get("errors", [])}
            for tid, entry in pager.rows]  # fmt: skip
    context = {"node": node, "tenant_rows": rows, "pager": pager, "capabilities": capability_rows(node.capabilities),
               "live": node.applied_generation != node.desired_generation}  # fmt: skip
    return render_page(request, "agents/node_detail.html", context, "agents/partials/node_status.html")


# What the agent probes (enclave_agent.plan.Capabilities), in words; unknown keys are shown as they come.
CAPABILITY_LABELS = {
    "kernel": "Kernel",
    "vrf": "VRF (a routing table per tenant)",
    "vxlan": "VXLAN (overlay segments)",
    "nftables": "nftables (the tenants' firewall)",
    "detail": "Detail",
}


def capability_rows(capabilities) -> list[tuple[str, str, bool | None]]:
    """(label, value as text, supported?) per capability: known ones first, booleans as yes/no."""
    caps = capabilities if isinstance(capabilities, dict) else {}
    keys = [k for k in CAPABILITY_LABELS if k in caps] + sorted(k for k in caps if k not in CAPABILITY_LABELS)
    rows = []
    for key in keys:
        value = caps[key]
        if isinstance(value, bool):
            rows.append((CAPABILITY_LABELS.get(key, key), "yes" if value else "no", value))
        else:
            text = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
            rows.append((CAPABILITY_LABELS.get(key, key), text or "—", None))
    return rows


def _as_int(text) -> int:
    return int(text) if str(text).isdigit() else -1


@staff_member_required
@require_POST
def node_revoke_credential(request, pk):
    """Revoke the node's credentials now (audited); it must re-enrol with a join token naming it."""
    node = services.revoke_credentials(get_object_or_404(Node, pk=pk))
    messages.success(request, f"Credentials of {node} revoked; its agent is locked out until it re-enrols.")
    return redirect("agents:node-detail", pk=node.pk)


@staff_member_required
def join_token_create(request, pk):
    """Create a one-time join token for a pool; shown once on the nodes page."""
    pool = get_object_or_404(NodePool, pk=pk)
    if request.method == "POST":
        _, raw = services.create_join_token(pool, request.POST.get("node_name", "").strip())
        request.session["join_token"] = {"pool": pool.name, "token": raw}
        messages.success(request, f"Join token for {pool} created; it is shown once below.")
    return redirect("agents:node-list")
