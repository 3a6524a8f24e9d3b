"""The node pool of an overlay segment (SegmentPool), as netpolicy asks for it through netpolicy.node_pools.

Also each node's realization of a segment, read from its last report for the segment's page.
"""

from dataclasses import dataclass

from django.db.models.fields.json import KeyTransform
from django.urls import reverse

from agents.choices import NodeStatus, TenantNetworkStatus
from agents.models import NodePool, SegmentPool
from core.viewer_text import Viewer

# A node's own errors are nft's and ip's words about the whole node, which may quote any tenant's objects.
NODE_PROBLEM = "the node itself reports a problem (site admins see its errors)"


@dataclass(frozen=True)
class NodeRow:
    """One node of the segment's pool: how far it realized the segment's tenant network, and why."""

    node: object
    status: str  # "ready", "applying" or "failed"
    reason: str

    @property
    def url(self) -> str:
        """The node's page (site admins'), linked from the segment's page in netpolicy."""
        return reverse("agents:node-detail", args=[self.node.pk])


class SegmentPools:
    """The provider netpolicy.node_pools calls (registered by agents.apps)."""

    def queryset(self):
        return NodePool.objects.all()

    def pool_of(self, segment):
        try:
            return segment.pool_link.pool
        except SegmentPool.DoesNotExist:
            return None

    def with_pools(self, segments):
        return segments.select_related("pool_link__pool")

    def link(self, segment, pool) -> None:
        SegmentPool.objects.update_or_create(segment=segment, defaults={"pool": pool})

    def nodes_of(self, segment):
        return nodes_of(segment)

    def node_rows(self, segment, nodes, viewer: Viewer) -> list:
        return node_rows(segment, nodes, viewer)


def nodes_of(segment):
    """The nodes of the segment's pool, each with only its report's entry for the segment's tenant."""
    entry = KeyTransform(str(segment.tenant_id), KeyTransform("tenants", "last_report"))
    nodes = segment.node_pool.nodes.defer("last_report", "desired_node", "tenant_errors").annotate(entry=entry)
    return nodes.order_by("name")


def node_rows(segment, nodes, viewer: Viewer) -> list[NodeRow]:
    """Each node's realization of the segment, from its last report (the agent reports per tenant).

    The segment's tenant's own entry is read; the node's own errors only by site admins.
    """
    compiled = segment.observed_generation >= segment.generation
    return [_row(segment, node, compiled, node.last_error if viewer.admin else NODE_PROBLEM) for node in nodes]


def _row(segment, node, compiled: bool, node_error: str) -> NodeRow:
    if not compiled:
        return NodeRow(node, "applying", "Waits for the worker to compile the pool's desired state.")
    if node.status == NodeStatus.PENDING:
        return NodeRow(node, "applying", "Enrolled; the agent has not reported yet.")
    if node.applied_generation < node.desired_generation:
        return NodeRow(
            node,
            "applying",
            f"Applying generation {node.desired_generation} "
            f"(applied {node.applied_generation}); the agent fetches it on its next poll.",
        )
    entry = node.entry if isinstance(node.entry, dict) else None
    if entry is None and node.status == NodeStatus.NOT_READY:
        return NodeRow(
            node, "failed", f"The node is not ready: {node_error}" if node.last_error else "The node is not ready."
        )
    if entry is None:
        return NodeRow(node, "applying", "Not in the node's last report yet.")
    errors = "; ".join(entry.get("errors") or [])
    if entry.get("status") == TenantNetworkStatus.READY:
        if node.status == NodeStatus.NOT_READY:
            return NodeRow(node, "failed", f"Realized, but the node is not ready: {node_error or 'no reason given'}")
        return NodeRow(node, "ready", "Realized (VRF, VXLAN and firewall applied).")
    if entry.get("status") == TenantNetworkStatus.NOT_READY:
        return NodeRow(node, "applying", f"Blocked: {errors or 'not ready'}")
    return NodeRow(node, "failed", f"Failed: {errors or 'no reason given'}")
