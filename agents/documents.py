"""Serving stored desired-state documents: a few small reads and string joins, no compiling."""

import threading
from dataclasses import dataclass

from agents import desired, hotpath
from agents.models import PoolDocument

_CACHE_POOLS = 64  # pools' fragments kept per process (a few MB each at 1,000 tenants)
_cache: dict[int, tuple[str, bytes]] = {}  # pool -> (digest, fragment)
_cache_lock = threading.Lock()


@dataclass(frozen=True)
class Current:
    """What a node's document is now: its generation, its own part, its pool's digest."""

    generation: int
    node_json: str
    pool_id: int
    pool_digest: str

    @property
    def etag(self) -> str:
        return desired.etag(self.generation, self.node_json, self.pool_digest)


def current(node_id: int) -> Current | None:
    """One query; None while the node's or its pool's part has not been compiled yet."""
    row = hotpath.current_row(node_id)
    if row is None or not row[1] or row[3] is None:
        return None
    return Current(*row)


def body(state: Current) -> tuple[bytes, str]:
    """(document bytes, ETag): the pool's fragment from this process's cache while its digest holds."""
    cached = _cache.get(state.pool_id)
    if cached is None or cached[0] != state.pool_digest:
        row = PoolDocument.objects.filter(pool_id=state.pool_id).values_list("digest", "tenants", "nftables").first()
        if row is None:
            raise LookupError(f"pool {state.pool_id} has no document")
        cached = (row[0], desired.pool_fragment(row[1], row[2]))
        with _cache_lock:
            if len(_cache) >= _CACHE_POOLS:
                _cache.clear()
            _cache[state.pool_id] = cached
    # The pool may have moved on since current(): serve what was read, tagged as what it is.
    tag = desired.etag(state.generation, state.node_json, cached[0])
    return desired.body(state.generation, state.node_json, cached[1]), tag
