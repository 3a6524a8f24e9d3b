"""The audit hash chain: verify it in full or in part, and report its status cheaply for pages.

Each committed event gets a link (seq, prev_hash, hash) from a deferred database trigger
(audit/migrations/0003_chain.py): hash = sha256(prev_hash || canonical event). Verification walks
the links in seq order and recomputes each digest in the database with the same function, so a row
changed, deleted or inserted behind the application's back (by a superuser or the schema owner,
who can lift the guards) shows up as the first broken link.
"""

from dataclasses import dataclass

from django.core.cache import cache
from django.db import connection

from audit.models import ChainCheck

GENESIS = "0" * 64
BATCH = 5000
TAIL = 1000  # links the audit page re-verifies, at most once a minute
STATUS_CACHE_KEY = "enclave:audit-chain-tail"
STATUS_CACHE_SECONDS = 60

_LINKS = """
SELECT l.seq, l.event_id, l.prev_hash, l.hash, e.id IS NOT NULL,
       CASE WHEN e.id IS NULL THEN NULL ELSE audit_event_digest(e, l.prev_hash) END
  FROM audit_chainlink l LEFT JOIN audit_auditevent e ON e.id = l.event_id
 WHERE l.seq > %s ORDER BY l.seq LIMIT %s
"""
_UNLINKED = """
SELECT min(e.id) FROM audit_auditevent e
 WHERE NOT EXISTS (SELECT 1 FROM audit_chainlink l WHERE l.event_id = e.id)
"""


@dataclass(frozen=True)
class ChainReport:
    """What a verification found: ok, or the first broken link and why."""

    ok: bool
    links: int
    head_seq: int | None = None
    head_hash: str = GENESIS
    first_bad_event: int | None = None
    first_bad_seq: int | None = None
    problem: str = ""


def _seal_pending() -> None:
    """Link this transaction's own events now (they are otherwise linked at commit)."""
    if connection.in_atomic_block:
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS audit_event_chain IMMEDIATE")


def _start(after_seq: int | None) -> tuple[int, str]:
    """Where a walk starts: the genesis, or the stored hash of link `after_seq`."""
    if not after_seq:
        return 0, GENESIS
    with connection.cursor() as cursor:
        cursor.execute("SELECT hash FROM audit_chainlink WHERE seq = %s", [after_seq])
        row = cursor.fetchone()
    return (after_seq, row[0]) if row else (0, GENESIS)


def _check(row, expected_seq: int, prev_hash: str) -> str:
    """The problem with one link, or an empty string."""
    seq, event_id, link_prev, link_hash, present, digest = row
    if seq != expected_seq:
        return f"links {expected_seq}..{seq - 1} are missing"
    if link_prev != prev_hash:
        return f"link {seq} does not follow link {seq - 1} (prev_hash differs)"
    if not present:
        return f"event {event_id} (link {seq}) was deleted"
    if digest != link_hash:
        return f"event {event_id} (link {seq}) was changed after it was recorded"
    return ""


def verify(after_seq: int | None = None, limit: int | None = None) -> ChainReport:
    """Walk the chain (from the genesis, or after link `after_seq`); stop at the first broken link.

    A full walk (no arguments) also reports events that carry no link at all.
    """
    _seal_pending()
    last_seq, last_hash = _start(after_seq)
    links = 0
    with connection.cursor() as cursor:
        while limit is None or links < limit:
            size = BATCH if limit is None else min(BATCH, limit - links)
            cursor.execute(_LINKS, [last_seq, size])
            rows = cursor.fetchall()
            for row in rows:
                problem = _check(row, last_seq + 1, last_hash)
                if problem:
                    return ChainReport(False, links, last_seq or None, last_hash, row[1], row[0], problem)
                last_seq, last_hash, links = row[0], row[3], links + 1
            if len(rows) < size:
                break
        if after_seq is None and limit is None:
            cursor.execute(_UNLINKED)
            unlinked = cursor.fetchone()[0]
            if unlinked is not None:
                problem = f"event {unlinked} is not on the chain (inserted with the chain trigger off)"
                return ChainReport(False, links, last_seq or None, last_hash, unlinked, None, problem)
    return ChainReport(True, links, last_seq or None, last_hash)


def verify_and_record() -> ChainReport:
    """Verify the whole chain and keep the result for the audit page."""
    report = verify()
    ChainCheck.objects.create(
        ok=report.ok, links=report.links, head_seq=report.head_seq, head_hash=report.head_hash,
        first_bad_event=report.first_bad_event, problem=report.problem,
    )  # fmt: skip
    cache.delete(STATUS_CACHE_KEY)
    return report


def head_seq() -> int:
    """The newest link's seq (0 for an empty chain)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT coalesce(max(seq), 0) FROM audit_chainlink")
        return cursor.fetchone()[0]


def status() -> dict:
    """For the audit page: the last full check, and the newest links re-verified (cached a minute)."""
    tail = cache.get(STATUS_CACHE_KEY)
    if tail is None:
        start = max(head_seq() - TAIL, 0)
        report = verify(after_seq=start, limit=TAIL)
        tail = {"ok": report.ok, "links": report.links, "head_seq": report.head_seq, "problem": report.problem,
                "first_bad_event": report.first_bad_event}  # fmt: skip
        cache.set(STATUS_CACHE_KEY, tail, STATUS_CACHE_SECONDS)
    return {"tail": tail, "full": ChainCheck.objects.first()}
