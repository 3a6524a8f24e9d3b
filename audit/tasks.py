"""Periodic verification of the audit hash chain (its result is shown on the audit page)."""

import logging

from celery import shared_task

from audit.chain import verify_and_record

log = logging.getLogger(__name__)


@shared_task
def verify_chain() -> bool:
    """Verify the whole chain; log the head so an outside log keeps an anchor of it."""
    report = verify_and_record()
    if report.ok:
        log.info("audit chain OK: %d links, head #%s %s", report.links, report.head_seq, report.head_hash)
    else:
        log.error("audit chain BROKEN at event %s: %s", report.first_bad_event, report.problem)
    return report.ok
