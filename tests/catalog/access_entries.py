"""Access-matrix entries of the catalog: an item shown to tenant A only is a 404 for tenant B."""

CATALOG_MATRIX = {
    "catalogitem-list": ("get", "list", "catalog_item_a"),
    "catalogitem-detail": ("get", "detail", "catalog_item_a"),
    "catalogitem-versions": ("get", "detail", "catalog_item_a"),
    "catalogitem-request": ("post", "action", "catalog_item_a"),
    "clusterorigin-list": ("get", "list", "cluster_origin_a"),
    "clusterorigin-detail": ("get", "detail", "cluster_origin_a"),
    "catalog:item-list": ("get", "list", None),
    "catalog:item-detail": ("get", "detail", "catalog_item_a"),
    "catalog:item-create": ("get", "admin", None),
    "catalog:item-edit": ("get", "admin", "catalog_item_a"),
}
CATALOG_EXEMPT: set = set()


def add_catalog_objects(objects) -> None:
    """An item shown to tenant A only, and tenant A's cluster requested from it."""
    import datetime

    from django.utils import timezone

    from catalog import services
    from tests.catalog.builders import mpi_item

    world = objects.world
    objects.catalog_item_a = mpi_item(world.admin, visibility="tenants", tenants=[world.tenant_a])
    lease = timezone.localdate() + datetime.timedelta(days=10)
    cluster = services.request_cluster(
        objects.catalog_item_a, world.tenant_a, world.member_a, {"name": "from-item", "lease_end": lease,
                                                                 "justification": "x"}
    )  # fmt: skip
    objects.cluster_origin_a = cluster.catalog_origin
