"""`flush` as the schema owner: the append-only audit tables refuse TRUNCATE to everyone else."""

from django.core.management.commands import flush
from django.db import connections, transaction

from portal.dbroles import as_owner

# The statement-level guards of audit/migrations; lifted only inside this transaction.
GUARDS = {"audit_auditevent": "audit_event_no_truncate", "audit_chainlink": "audit_chain_no_truncate"}


class Command(flush.Command):
    help = flush.Command.help + " Runs as ENCLAVE_DB_OWNER_USER when set (the audit log included)."

    def handle(self, **options):
        alias = options["database"]
        with as_owner(alias), transaction.atomic(using=alias):
            connection = connections[alias]
            guards = {t: g for t, g in GUARDS.items() if t in connection.introspection.table_names()}
            with connection.cursor() as cursor:
                for table, guard in guards.items():
                    cursor.execute(f"ALTER TABLE {table} DISABLE TRIGGER {guard}")
            super().handle(**options)
            with connection.cursor() as cursor:
                for table, guard in guards.items():
                    cursor.execute(f"ALTER TABLE {table} ENABLE TRIGGER {guard}")
