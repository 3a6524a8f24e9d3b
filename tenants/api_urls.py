"""Router registrations of the tenants API; portal/api_urls.py calls register(router)."""

from tenants.api import ClusterViewSet, MembershipViewSet, QuotaViewSet, TenantViewSet


def register(router) -> None:
    """Add the tenants endpoints to the project's /api/v1/ router."""
    router.register("tenants", TenantViewSet)
    router.register("memberships", MembershipViewSet)
    router.register("quotas", QuotaViewSet)
    router.register("clusters", ClusterViewSet)
