"""Celery tasks of the agents app."""

import logging

from celery import shared_task

from agents import services
from agents.models import Node

log = logging.getLogger(__name__)


@shared_task
def refresh_nodes(pool_ids=None) -> int:
    """Recompute desired state for the nodes of these pools (all when None) and wake the changed ones."""
    nodes = Node.objects.select_related("pool")
    if pool_ids is not None:
        nodes = nodes.filter(pool_id__in=pool_ids)
    shared = {}  # the ruleset compile is the expensive part and is the same for a whole pool
    changed = []
    for node in nodes:
        if node.pool_id not in shared:
            shared[node.pool_id] = services.pool_intent(node.pool)
        try:
            if services.refresh(node, shared[node.pool_id]):
                changed.append(node)
        except Exception:  # one node's bad data must not keep its pool's other nodes stale
            log.exception("desired state of node %s could not be computed", node.name)
    services.wake(changed)
    return len(changed)


@shared_task
def mark_silent_nodes() -> int:
    """Periodic: nodes that stopped long-polling become NotReady."""
    return services.mark_silent_nodes()
