"""`migrate` as the schema owner, then grant the application role (see portal.dbroles)."""

from django.core.management.commands import migrate

from portal.dbroles import app_role, as_owner, grant_app_role, owner_configured


class Command(migrate.Command):
    help = migrate.Command.help + " Connects as ENCLAVE_DB_OWNER_USER when set, then grants ENCLAVE_DB_USER."

    def handle(self, *args, **options):
        alias = options["database"]
        with as_owner(alias):
            super().handle(*args, **options)
            if owner_configured(alias):
                grant_app_role(alias, app_role(alias))
