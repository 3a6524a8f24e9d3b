"""What netpolicy asks of the app that owns Linux node pools (agents), which registers here from its ready().

netpolicy sits below agents and never imports it: the segment's node pool is a link agents holds
(agents.SegmentPool), read and written through the provider agents registers. The segment service
calls `check_segment` itself before it saves a segment, so no signal of another app vetoes the save.
See docs/architecture.md, Registries.
"""

from collections.abc import Callable
from typing import Any, Protocol


class Provider(Protocol):
    """The node pools' owner, as netpolicy sees it."""

    def queryset(self) -> Any: ...  # every node pool, for choosing one (forms, the API)
    def pool_of(self, segment) -> Any: ...  # the segment's pool or None
    def with_pools(self, segments) -> Any: ...  # the queryset, reading each segment's pool in the same query
    def link(self, segment, pool) -> None: ...  # store the pool of a segment just saved
    def nodes_of(self, segment) -> Any: ...  # the nodes of the segment's pool, for its page
    def node_rows(self, segment, nodes, viewer) -> list: ...  # each node's realization of the segment


_provider: list[Provider] = []
_checks: list[Callable] = []


def register(provider: Provider) -> None:
    """Install the node pools' owner (agents, once)."""
    _provider[:] = [provider]


def register_check(check: Callable) -> None:
    """Add a check(segment, pool) that raises a core.errors.ServiceError to refuse a segment about to be saved."""
    if check not in _checks:
        _checks.append(check)


def check_segment(segment) -> None:
    """Run every registered check on a segment about to be saved (new, or changing state)."""
    for check in _checks:
        check(segment)


def _owner() -> Provider:
    if not _provider:
        raise RuntimeError("no node pool provider registered (agents is not installed)")
    return _provider[0]


def queryset():
    return _owner().queryset()


def pool_of(segment):
    """The segment's node pool or None; None for a segment not saved yet."""
    return _owner().pool_of(segment) if segment.pk is not None else None


def with_pools(segments):
    return _owner().with_pools(segments)


def link(segment) -> None:
    """Store the pool set on a segment the service has just saved (nothing when it has none)."""
    if segment.node_pool is not None:
        _owner().link(segment, segment.node_pool)


def nodes_of(segment):
    return _owner().nodes_of(segment)


def node_rows(segment, nodes, viewer) -> list:
    return _owner().node_rows(segment, nodes, viewer)
