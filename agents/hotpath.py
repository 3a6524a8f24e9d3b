"""The node agents' two reads (and the heartbeat write) on every request, as SQL built once per process.

Every long-poll renewal (2,000 nodes: about 70 a second) authenticates its node and reads what its
document is now. Through the ORM each read compiles its SQL again, about as long on a small CPU as
the database takes to answer; here the statements are built once from the models' metadata and
rows become model instances with Model.from_db, as the ORM itself does.
"""

import functools

from django.db import connection, transaction

from agents.models import Node, NodeCredential, NodePool, PoolDocument

# The node's compiled part (read only when its document is served) and its last report (up to
# megabytes of JSON at 1,000 tenants: decoding it was a tenth of a renewal's CPU, measured).
NODE_SKIP = ("desired_node", "last_report")


def _fields(model, skip=()):
    return [f for f in model._meta.concrete_fields if f.attname not in skip]


def _select(alias: str, fields) -> str:
    quote = connection.ops.quote_name
    return ", ".join(f"{alias}.{quote(f.column)}" for f in fields)


@functools.cache
def _credential_sql() -> tuple[str, list, list, list]:
    cred, node, pool = _fields(NodeCredential), _fields(Node, NODE_SKIP), _fields(NodePool)
    table = lambda model: connection.ops.quote_name(model._meta.db_table)  # noqa: E731
    # names come from the models' metadata; the one value is bound
    sql = (f"SELECT {_select('c', cred)}, {_select('n', node)}, {_select('p', pool)} "  # noqa: S608
           f"FROM {table(NodeCredential)} c JOIN {table(Node)} n ON n.id = c.node_id "
           f"JOIN {table(NodePool)} p ON p.id = n.pool_id WHERE c.credential_hash = %s")  # fmt: skip
    return sql, cred, node, pool


def credential(credential_hash: str) -> NodeCredential | None:
    """The credential with this hash, its node (but NODE_SKIP) and the node's pool; one query."""
    sql, cred_fields, node_fields, pool_fields = _credential_sql()
    with connection.cursor() as cursor:
        cursor.execute(sql, [credential_hash])
        row = cursor.fetchone()
    if row is None:
        return None
    values = list(row)
    found = []
    for model, fields in ((NodeCredential, cred_fields), (Node, node_fields), (NodePool, pool_fields)):
        part, values = values[: len(fields)], values[len(fields) :]
        part = [f.from_db_value(v, None, connection) if hasattr(f, "from_db_value") else v
                for f, v in zip(fields, part, strict=True)]  # fmt: skip
        found.append(model.from_db(connection.alias, [f.attname for f in fields], part))
    cred, node, pool = found
    node._state.fields_cache["pool"] = pool
    cred._state.fields_cache["node"] = node
    return cred


@functools.cache
def _current_sql() -> str:
    quote = connection.ops.quote_name
    node, document = quote(Node._meta.db_table), quote(PoolDocument._meta.db_table)
    return (f"SELECT n.desired_generation, n.desired_node, n.pool_id, d.digest, d.schema FROM {node} n "  # noqa: S608
            f"LEFT JOIN {document} d ON d.pool_id = n.pool_id WHERE n.id = %s")  # fmt: skip


def current_row(node_id: int) -> tuple | None:
    """(desired generation, node part, pool id, pool digest and schema or None) of one node; one query."""
    with connection.cursor() as cursor:
        cursor.execute(_current_sql(), [node_id])
        return cursor.fetchone()


@functools.cache
def _seen_sql() -> str:
    quote, meta = connection.ops.quote_name, Node._meta
    column, pk = quote(meta.get_field("last_seen").column), quote(meta.pk.column)
    return f"UPDATE {quote(meta.db_table)} SET {column} = %s WHERE {pk} = %s"  # noqa: S608


def seen(node_id: int, when) -> None:
    """Record that the node was heard from at `when` (the heartbeat); nothing compiled, no flush waited for.

    A heartbeat lost in a crash costs nothing (the node's next poll writes it again), so its commit does
    not wait for the WAL to reach the disk: at 2,000 nodes, 70 polls a second each waited for a flush."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL synchronous_commit TO OFF")
        cursor.execute(_seen_sql(), [when, node_id])


def release() -> None:
    """Hand the database connection back now (not inside a transaction, as in tests)."""
    if not connection.in_atomic_block:
        connection.close()


def release_if_pooled() -> None:
    """Hand a pooled connection back between a request's statements; an unpooled one would reconnect."""
    if connection.settings_dict.get("OPTIONS", {}).get("pool"):
        release()
