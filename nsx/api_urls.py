"""Router registrations of the nsx API; portal/api_urls.py calls register(router)."""

from nsx.api import NsxManagerViewSet, NsxObjectViewSet


def register(router) -> None:
    """Add the nsx endpoints to the project's /api/v1/ router."""
    router.register("nsx-managers", NsxManagerViewSet, basename="nsxmanager")
    router.register("nsx-objects", NsxObjectViewSet, basename="nsxobject")
