"""Which nodes report an InfiniBand port GUID: a port two nodes report is disputed and joins no partition.

Two shapes of one question. A node's report asks about its own few ports (at most 64): containment
tests, 6-12 ms over 10,000 nodes (a GIN index on `ib_ports` went unused by the planner there and was
left out). A fabric's sync asks about every port of its pools (20,000 at 10,000 nodes): one pass over
the unnested ports with the GUIDs bound as one array (benchmarks/ib_port_lookups.py).
"""

from django.db import connection, transaction
from django.db.models import Q

from agents.models import Node

REPORTED_TWICE = (
    "SELECT port->>'guid' FROM agents_node, jsonb_array_elements(ib_ports) AS port "
    "WHERE port->>'guid' = ANY(%s) GROUP BY 1 HAVING count(DISTINCT agents_node.id) > 1"
)


def also_reported(node: Node) -> dict[str, list[str]]:
    """Each of the node's port GUIDs that other nodes report too, with those nodes' names (sorted)."""
    wanted = Q()
    for port in node.ib_ports or []:
        wanted |= Q(ib_ports__contains=[{"guid": port["guid"]}])
    if not wanted:
        return {}
    others: dict[str, list[str]] = {port["guid"]: [] for port in node.ib_ports}  # in the node's order
    for name, listed in (
        Node.objects.exclude(pk=node.pk).filter(wanted).order_by("name").values_list("name", "ib_ports")
    ):
        for port in listed:
            if port["guid"] in others:
                others[port["guid"]].append(name)
    return {guid: names for guid, names in others.items() if names}


def reported_twice(guids: set[str]) -> set[str]:
    """Those of `guids` that more than one node of the site reports (one query)."""
    if not guids:
        return set()
    with transaction.atomic(), connection.cursor() as cursor:
        # The planner over-estimates the unnested ports (millions of rows at 10,000 nodes) and would spend
        # more compiling the query (JIT) than running it.
        cursor.execute("SET LOCAL jit = off")
        cursor.execute(REPORTED_TWICE, [sorted(guids)])
        return {row[0] for row in cursor.fetchall()}
