"""The /api/v1/ router: every app's viewsets, registered in one place."""

from django.urls import path
from rest_framework.routers import DefaultRouter

from agents.api import (
    DesiredStateView,
    JoinTokenViewSet,
    JoinView,
    NodePoolViewSet,
    NodeViewSet,
    ObservedStateView,
    PoolSubnetViewSet,
)
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
router.register("node-pools", NodePoolViewSet)
router.register("pool-subnets", PoolSubnetViewSet)
router.register("nodes", NodeViewSet)
router.register("join-tokens", JoinTokenViewSet)

urlpatterns = [
    path("agents/join", JoinView.as_view(), name="agent-join"),
    path("agents/<slug:node>/desired-state", DesiredStateView.as_view(), name="agent-desired-state"),
    path("agents/<slug:node>/observed-state", ObservedStateView.as_view(), name="agent-observed-state"),
    *router.urls,
]
