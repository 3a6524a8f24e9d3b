"""Serving stored desired-state documents: a few small reads and string joins, no compiling."""

import re
import threading
from dataclasses import dataclass, field

from enclave_agent import wire

from agents import desired, gzipped, hotpath
from agents.models import PoolDocument

_CACHE_POOLS = 64  # pools' fragments kept per process (a few MB each at 1,000 tenants)
_cache_lock = threading.Lock()
_NO_WEIGHT = re.compile(r"\s*q\s*=\s*0(\.0{0,3})?\s*", re.IGNORECASE)


@dataclass
class Fragment:
    """A pool's shared start of its nodes' documents, plain and (once asked for) compressed."""

    digest: str
    plain: bytes
    schema: int = wire.SCHEMA_VERSION
    packed: gzipped.Start | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    def compressed(self) -> gzipped.Start:
        # Once per pool change and process (about 30 ms for 3 MB); the nodes woken with it wait.
        with self.lock:
            if self.packed is None:
                self.packed = gzipped.start(self.plain)
        return self.packed


_cache: dict[int, Fragment] = {}  # pool -> its fragment as last read
_reading: dict[int, threading.Lock] = {}  # pool -> held while one thread reads its fragment


@dataclass(frozen=True)
class Current:
    """What a node's document is now: its generation, its own part, its pool's digest."""

    generation: int
    node_json: str
    pool_id: int
    pool_digest: str
    pool_schema: int = wire.SCHEMA_VERSION

    @property
    def etag(self) -> str:
        return desired.etag(self.generation, self.node_json, self.pool_digest)


def current(node_id: int) -> Current | None:
    """One query; None while the node's or its pool's part has not been compiled yet."""
    row = hotpath.current_row(node_id)
    if row is None or not row[1] or row[3] is None:
        return None
    return Current(*row)


def readable(node_reads, header: str | None) -> tuple[int, ...]:
    """The schemas the requesting agent reads: its Enclave-Wire header's (the agent running now, maybe
    upgraded since its last report), else what the node last reported; a malformed header: SchemaError."""
    return wire.parse_reads_header(header) if header is not None else desired.reads_of(node_reads)


def refusal(state: Current, reads: tuple[int, ...]) -> str | None:
    """Why the node is not sent its document (it cannot read its pool's schema), or None."""
    if state.pool_schema in reads:
        return None
    listed = ", ".join(str(v) for v in reads)
    return (f"This agent reads desired-state schema {listed}; its pool's document is written in schema "
            f"{state.pool_schema}: upgrade the agent.")  # fmt: skip


def accepts_gzip(accept_encoding: str | None) -> bool:
    """Whether Accept-Encoding names gzip with a weight above zero (RFC 9110, 12.5.3)."""
    for item in (accept_encoding or "").split(","):
        name, _, params = item.partition(";")
        if name.strip().lower() in (wire.GZIP, "x-gzip"):
            return not _NO_WEIGHT.fullmatch(params)
    return False


def body(state: Current, fragment: Fragment, gzip: bool = False) -> tuple[bytes, str]:
    """(document bytes, ETag), gzip-encoded if asked; no database."""
    # The pool may have moved on since current(): serve what was read, tagged as what it is.
    tag = desired.etag(state.generation, state.node_json, fragment.digest)
    if gzip:
        end = desired.node_tail(state.generation, state.node_json, fragment.schema)
        return gzipped.member(fragment.compressed(), end), desired.weak(tag)
    return desired.body(state.generation, state.node_json, fragment.plain, fragment.schema), tag


def fragment(state: Current) -> Fragment:
    """The node's pool's fragment from this process's cache while its digest holds (else one query)."""
    cached = _cache.get(state.pool_id)
    if cached is None or cached.digest != state.pool_digest:
        # A change wakes a pool's nodes together: one of them reads the 3 MB row, the others wait for it.
        with _cache_lock:
            reading = _reading.setdefault(state.pool_id, threading.Lock())
        with reading:
            cached = _cache.get(state.pool_id)
            if cached is None or cached.digest != state.pool_digest:
                cached = _read(state.pool_id)
    return cached


def _read(pool_id: int) -> Fragment:
    row = PoolDocument.objects.filter(pool_id=pool_id).values_list("digest", "tenants", "nftables", "schema").first()
    if row is None:
        raise LookupError(f"pool {pool_id} has no document")
    cached = Fragment(row[0], desired.pool_fragment(row[1], row[2]), row[3])
    with _cache_lock:
        if len(_cache) >= _CACHE_POOLS and pool_id not in _cache:
            del _cache[next(iter(_cache))]  # the pool read longest ago
        _cache[pool_id] = cached
    return cached
