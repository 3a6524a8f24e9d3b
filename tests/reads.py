"""What a block of code reads from the database: queries and rows (a flat cost reads the same rows)."""

from contextlib import contextmanager

from django.db import connection


class Reads:
    """Queries and rows counted while the `reading()` block ran."""

    def __init__(self):
        self.queries = self.rows = 0

    def __call__(self, execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        self.queries += 1
        self.rows += max(context["cursor"].rowcount, 0)
        return result


@contextmanager
def reading():
    """`with reading() as reads:` ... then reads.queries, reads.rows."""
    reads = Reads()
    with connection.execute_wrapper(reads):
        yield reads
