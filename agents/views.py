"""Site-admin pages: node pools, nodes with their state, last report, errors and tenants."""

from django.db.models import F
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse

from agents import desired, services
from agents.choices import NodeStatus, TenantNetworkStatus
from agents.models import Node, NodePool
from core.paging import paginate
from core.views import ObjectActionView, ObjectDetailView, ObjectListView
from tenants.access import staff_member_required
from tenants.models import Tenant


class NodeListView(ObjectListView):
    """Nodes with their status, one page at a time, filtered by pool, status or name; live with htmx."""

    decorators = (staff_member_required,)
    template_name = "agents/node_list.html"
    partial_name = "agents/partials/node_table.html"
    context_object_name = "nodes"

    def get_queryset(self, request):
        nodes = (Node.objects.select_related("pool").defer("last_report", "desired_node")
                 .annotate(pool_schema=F("pool__document__schema")).order_by("pool__name", "name"))  # fmt: skip
        if request.GET.get("pool", "").isdigit():
            nodes = nodes.filter(pool_id=int(request.GET["pool"]))
        if request.GET.get("status") in NodeStatus.values:
            nodes = nodes.filter(status=request.GET["status"])
        if request.GET.get("q"):
            nodes = nodes.filter(name__icontains=request.GET["q"])
        return nodes

    def get_extra_context(self, request, pager) -> dict:
        for node in pager.rows:  # which nodes hold their pool's schema back, or cannot read it
            node.wire_note = desired.wire_note(node.wire_reads, node.pool.name, node.pool_schema)
        pools = paginate(request, NodePool.objects.prefetch_related("subnets"), param="pools")
        return {"pools": pools, "statuses": NodeStatus.choices,
                "all_pools": NodePool.objects.values_list("pk", "name")[:200],
                "created_token": request.session.pop("join_token", None)}  # fmt: skip


class NodeDetailView(ObjectDetailView):
    """A node, its capabilities and the tenants it reported; live while it has not applied its generation."""

    decorators = (staff_member_required,)
    template_name = "agents/node_detail.html"
    partial_name = "agents/partials/node_status.html"
    context_object_name = "node"

    def get_object(self, request, pk):
        nodes = Node.objects.select_related("pool").prefetch_related("credentials")
        node = get_object_or_404(nodes.annotate(pool_schema=F("pool__document__schema")), pk=pk)
        node.wire_note = desired.wire_note(node.wire_reads, node.pool.name, node.pool_schema)
        return node

    def get_extra_context(self, request, node) -> dict:
        reported = sorted((node.last_report or {}).get("tenants", {}).items(), key=lambda item: _as_int(item[0]))
        pager = paginate(request, reported)
        ids = [_as_int(tid) for tid, _ in pager.rows]
        tenants = {t.pk: t for t in Tenant.objects.filter(pk__in=ids).only("pk", "slug", "name")}
        labels = dict(TenantNetworkStatus.choices)
        rows = [{"tenant": tenants.get(_as_int(tid)), "id": tid, "status": entry.get("status", ""),
                 "label": labels.get(entry.get("status"), entry.get("status", "")), "errors": entry.get("errors", [])}
                for tid, entry in pager.rows]  # fmt: skip
        return {"tenant_rows": rows, "pager": pager, "capabilities": capability_rows(node.capabilities),
                "live": node.applied_generation != node.desired_generation}  # fmt: skip


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


class NodeRevokeCredentialView(ObjectActionView):
    """Revoke the node's credentials now (audited); it must re-enrol with a join token naming it."""

    decorators = (staff_member_required,)

    def get_object(self, request, pk):
        return get_object_or_404(Node, pk=pk)

    def perform(self, request, node):
        return services.revoke_credentials(node)

    def success_message(self, node, result) -> str:
        return f"Credentials of {result} revoked; its agent is locked out until it re-enrols."

    def get_success_url(self, request, node, result=None) -> str:
        return reverse("agents:node-detail", kwargs={"pk": node.pk})


class JoinTokenCreateView(ObjectActionView):
    """Create a one-time join token for a pool; shown once on the nodes page."""

    decorators = (staff_member_required,)
    http_method_names = ["get", "post"]

    def get_object(self, request, pk):
        return get_object_or_404(NodePool, pk=pk)

    def get(self, request, pk):  # a GET only looks the pool up, as it always did
        self.get_object(request, pk)
        return redirect("agents:node-list")

    def perform(self, request, pool):
        _, raw = services.create_join_token(pool, request.POST.get("node_name", "").strip())
        request.session["join_token"] = {"pool": pool.name, "token": raw}

    def success_message(self, pool, result) -> str:
        return f"Join token for {pool} created; it is shown once below."

    def get_success_url(self, request, pool, result=None) -> str:
        return reverse("agents:node-list")
