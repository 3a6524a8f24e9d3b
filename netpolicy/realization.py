"""How far a segment is realized, and why not further: read from the database (pages never ask a node or vCenter)."""

from core import readiness
from core.viewer_text import Viewer
from netpolicy import node_pools
from netpolicy.choices import SegmentKind
from netpolicy.choices import SegmentState as S

NOT_REALIZED = {
    S.REQUESTED: "Waits for a site admin's approval; nothing is realized before that.",
    S.REJECTED: "Rejected: it is never realized.",
    S.RETIRED: "Retired: its ids and subnet went back to the pools, and nodes remove it.",
}


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
    """The nodes of the segment's pool, each with its report's entry for the segment's tenant (agents answers)."""
    return node_pools.nodes_of(segment)


def node_rows(segment, nodes, viewer: Viewer) -> list:
    """Each node's realization of the segment, from its last report (agents answers)."""
    return node_pools.node_rows(segment, nodes, viewer)
