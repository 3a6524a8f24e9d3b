"""Site-admin pages: node pools, nodes with their state, last report, errors and tenants."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from agents import services
from agents.models import Node, NodePool
from frontend.admin_views import staff_member_required
from frontend.views import render_page
from tenants.models import Tenant


@staff_member_required
def node_list(request):
    """Every node with its status; refreshed live with htmx."""
    nodes = Node.objects.select_related("pool").order_by("pool__name", "name")
    pools = NodePool.objects.prefetch_related("subnets")
    context = {"nodes": nodes, "pools": pools, "created_token": request.session.pop("join_token", None)}
    return render_page(request, "agents/node_list.html", context, "agents/partials/node_table.html")


@staff_member_required
def node_detail(request, pk):
    node = get_object_or_404(Node.objects.select_related("pool").prefetch_related("credentials"), pk=pk)
    reported = (node.last_report or {}).get("tenants", {})
    tenants = {t.pk: t for t in Tenant.objects.filter(pk__in=[int(i) for i in reported if str(i).isdigit()])}
    rows = [{"tenant": tenants.get(int(tid)), "id": tid, **entry} for tid, entry in sorted(reported.items())]
    return render(request, "agents/node_detail.html", {"node": node, "tenant_rows": rows})


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
