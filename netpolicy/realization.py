"""How far a segment is realized, and why not further: read from the database (pages never ask a node or vCenter)."""

from dataclasses import dataclass

from django.db.models.fields.json import KeyTransform

from agents.choices import NodeStatus, TenantNetworkStatus
from core import readiness
from core.viewer_text import Viewer
from netpolicy.choices import SegmentKind
from netpolicy.choices import SegmentState as S

# A node's own errors are nft's and ip's words about the whole node, which may quote any tenant's objects.
NODE_PROBLEM = "the node itself reports a problem (site admins see its errors)"
NOT_REALIZED = {
    S.REQUESTED: "Waits for a site admin's approval; nothing is realized before that.",
    S.REJECTED: "Rejected: it is never realized.",
    S.RETIRED: "Retired: its ids and subnet went back to the pools, and nodes remove it.",
}


@dataclass(frozen=True)
class NodeRow:
    """One node of the segment's pool: how far it realized the segment's tenant network, and why."""

    node: object
    status: str  # "ready", "applying" or "failed"
    reason: str


def summary(segment, clusters) -> str:
    """Why the segment is (or is not yet) observed, in one sentence for its page."""
    if segment.state in NOT_REALIZED:
        return NOT_REALIZED[segment.state]
    if segment.node_pool_id:
        if segment.observed_generation < segment.generation:
            return (
                f"Generation {segment.generation} waits for the worker to compile it into the desired state "
                f"of node pool {segment.node_pool} (compiled so far: {segment.observed_generation})."
            )
        waiting = waiting_for(segment)
        if waiting:  # e.g. the InfiniBand fabric has not programmed the nodes' ports into the tenant's partition
            return f"Compiled for node pool {segment.node_pool}, but not ready: waiting for {'; '.join(waiting)}."
        return f"Compiled into the desired state of node pool {segment.node_pool}; each node's progress is below."
    if segment.vsphere_cluster and segment.kind == SegmentKind.OVERLAY:
        return "Realized by the site's NSX Manager as an overlay segment on the tenant's tier-1; NSX's state below."
    if segment.vsphere_cluster or clusters:
        return (
            "Realized on vSphere as a port group by the reconcile of each cluster placed on it (below); "
            "the segment itself has no reconciler, so its observed generation stays behind."
        )
    return "Not placed on a Linux node pool or a vSphere cluster yet: nothing realizes it."


def waiting_for(segment) -> list[str]:
    """What a segment compiled for a node pool still waits for (an InfiniBand partition programmed): [] if nothing."""
    if segment.state in NOT_REALIZED or not segment.node_pool_id:
        return []
    return readiness.waiting("segment", segment)


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
