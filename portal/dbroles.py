"""Two database roles: the owner migrates; the app role (web, worker, beat) cannot rewrite the audit log.

scripts/db-roles.sql creates both roles (as a superuser). `manage.py migrate` connects as the owner
(ENCLAVE_DB_OWNER_USER) and ends with `grant_app_role`, so every table a migration adds is granted
here, in one place. The app role is never the owner, so it can neither ALTER nor DISABLE TRIGGER.
"""

from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.db import connections

# Tables the application may only append to and read, or only read.
APPEND_ONLY = ("audit_auditevent",)
READ_ONLY = ("audit_chainlink", "django_migrations")


def app_role(alias: str = "default") -> str:
    """The role the application connects as (also while `as_owner` has swapped the connection)."""
    connection = connections[alias]
    return getattr(connection, "enclave_app_role", None) or connection.settings_dict["USER"]


def owner_configured(alias: str = "default") -> bool:
    """Whether a separate owner role is configured for this database."""
    owner = settings.DB_OWNER_USER
    return bool(owner) and owner != app_role(alias)


@contextmanager
def as_owner(alias: str = "default") -> Iterator[None]:
    """Connect `alias` as the schema owner inside the block (a no-op with a single role, or nested)."""
    connection = connections[alias]
    if not owner_configured(alias) or connection.settings_dict["USER"] == settings.DB_OWNER_USER:
        yield
        return
    saved = connection.settings_dict["USER"], connection.settings_dict["PASSWORD"]
    _drop_connections(connection)
    connection.enclave_app_role = saved[0]
    connection.settings_dict["USER"] = settings.DB_OWNER_USER
    connection.settings_dict["PASSWORD"] = settings.DB_OWNER_PASSWORD
    try:
        yield
    finally:
        _drop_connections(connection)
        connection.settings_dict["USER"], connection.settings_dict["PASSWORD"] = saved
        del connection.enclave_app_role


def _drop_connections(connection) -> None:
    """Close the connection, and the pool (ENCLAVE_DB_POOL_SIZE) whose connections are the other role's."""
    connection.close()
    connection.close_pool()  # none without a pool; else the next comes from a new one, with the current role


def grant_app_role(alias: str, app_role: str) -> None:
    """Grant the app role DML on every table, except INSERT/SELECT on the audit log (run as the owner)."""
    connection = connections[alias]
    quote = connection.ops.quote_name
    role = quote(app_role)
    existing = set(connection.introspection.table_names())
    append_only = ", ".join(quote(t) for t in APPEND_ONLY if t in existing)
    read_only = ", ".join(quote(t) for t in READ_ONLY if t in existing)
    with connection.cursor() as cursor:
        cursor.execute(f"GRANT USAGE ON SCHEMA public TO {role}")
        cursor.execute(f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {role}")
        cursor.execute(f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {role}")
        if append_only:
            cursor.execute(f"REVOKE ALL ON {append_only} FROM {role}")
            cursor.execute(f"GRANT SELECT, INSERT ON {append_only} TO {role}")
        if read_only:
            cursor.execute(f"REVOKE ALL ON {read_only} FROM {role}")
            cursor.execute(f"GRANT SELECT ON {read_only} TO {role}")
