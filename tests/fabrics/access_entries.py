"""The fabrics app's routes in the access matrix (merged by tests/access.py)."""

FABRICS_MATRIX = {
    "fabric-list": ("get", "admin", None),
    "fabric-detail": ("get", "admin", "fabric"),
    "sharedport-list": ("get", "admin", None),
    "sharedport-detail": ("get", "admin", "shared_port"),
    "fabricjointoken-list": ("get", "admin", None),
    "fabricjointoken-detail": ("get", "admin", "fabric_join_token"),
    "partition-list": ("get", "list", "partition_a"),
    "partition-detail": ("get", "detail", "partition_a"),
}
# Fabric-credential endpoints: tests/fabrics/test_fabric_channel_db.py proves fabric-scoping and refusal of
# node credentials; the abuse table (tests/security/entries/fabrics.py) refuses user sessions.
FABRICS_EXEMPT = {"agent-fabric-join", "agent-fabric-desired", "agent-fabric-report", "agent-fabric-credential"}


def add_fabric_objects(objects) -> None:
    """Fabric ib0 with a shared port, a join token, and tenant A's partition key on it."""
    from fabrics import allocation, services

    objects.fabric = services.create_fabric({"name": "ib0"})
    objects.shared_port = services.add_shared_port(objects.fabric, "0x0002c90300000001", "storage")
    objects.fabric_join_token, _ = services.create_join_token(objects.fabric)
    objects.partition_a = allocation.allocate(objects.fabric, objects.tenant_a.pk)


FABRICS_MATRIX |= {
    "fabrics:fabric-list": ("get", "admin", None),
    "fabrics:fabric-detail": ("get", "admin", "fabric"),
    "fabrics:join-token-create": ("post", "admin", "fabric"),
}
