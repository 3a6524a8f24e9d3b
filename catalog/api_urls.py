"""Router registrations of the catalog API; portal/api_urls.py calls register(router)."""

from catalog.api import CatalogItemViewSet, ClusterOriginViewSet


def register(router) -> None:
    """Add the catalog endpoints to the project's /api/v1/ router."""
    router.register("catalog-items", CatalogItemViewSet, basename="catalogitem")
    router.register("catalog-requests", ClusterOriginViewSet, basename="clusterorigin")
