"""The /api/v1/ router: every app's viewsets, registered in one place."""

from rest_framework.routers import DefaultRouter

from audit.api import AuditEventViewSet
from tenants.api import ClusterViewSet, MembershipViewSet, QuotaViewSet, TenantViewSet
from users.api import TokenViewSet

router = DefaultRouter()
router.register("tenants", TenantViewSet)
router.register("memberships", MembershipViewSet)
router.register("quotas", QuotaViewSet)
router.register("clusters", ClusterViewSet)
router.register("audit-events", AuditEventViewSet)
router.register("tokens", TokenViewSet)

urlpatterns = router.urls
