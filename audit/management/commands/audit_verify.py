"""Verify the whole audit hash chain; exit 1 and name the first broken link if it is broken."""

import sys

from django.core.management.base import BaseCommand

from audit.chain import verify_and_record


class Command(BaseCommand):
    help = "Verify every link of the audit log's hash chain and record the result."

    def handle(self, **options):
        report = verify_and_record()
        if report.ok:
            self.stdout.write(f"OK: {report.links} links verified; head #{report.head_seq} {report.head_hash}")
            return
        self.stderr.write(
            f"BROKEN at link {report.first_bad_seq or '-'} (event {report.first_bad_event}): {report.problem}\n"
            f"{report.links} links verified before it."
        )
        sys.exit(1)
