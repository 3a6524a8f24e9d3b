"""The /api/v1/ router: every app's viewsets, registered in one place."""

from django.urls import path
from rest_framework.routers import DefaultRouter

from agents.api import (
    CredentialView,
    DesiredStateView,
    JoinTokenViewSet,
    JoinView,
    NodePoolViewSet,
    NodeViewSet,
    ObservedStateView,
    PoolSubnetViewSet,
)
from audit.api import AuditEventViewSet
from catalog.api import CatalogItemViewSet, ClusterOriginViewSet
from fabrics.api_urls import register as register_fabrics
from fabrics.api_urls import urlpatterns as fabric_urls
from netpolicy.api_urls import register as register_netpolicy
from netpolicy.site_api import SiteSettingsView
from nsx.api import NsxManagerViewSet, NsxObjectViewSet
from tenants.api import ClusterViewSet, MembershipViewSet, QuotaViewSet, TenantViewSet
from users.api import MeView, TokenViewSet
from vsphere.api import (
    CapacityView,
    ClusterOperationLogView,
    ClusterPlanView,
    HostViewSet,
    PhysicalFunctionViewSet,
    VCenterViewSet,
    VFAssignmentViewSet,
)
from vsphere.device_api import DeviceAssignmentViewSet, PCIDeviceViewSet, VGPUProfileViewSet
from webhooks.api import DeliveryViewSet, WebhookViewSet

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
register_netpolicy(router)
router.register("catalog-items", CatalogItemViewSet, basename="catalogitem")
router.register("catalog-requests", ClusterOriginViewSet, basename="clusterorigin")
# vsphere
router.register("vcenters", VCenterViewSet, basename="vcenter")
router.register("hosts", HostViewSet, basename="vsphere-host")
router.register("physical-functions", PhysicalFunctionViewSet, basename="physicalfunction")
router.register("vf-assignments", VFAssignmentViewSet, basename="vfassignment")
router.register("pci-devices", PCIDeviceViewSet, basename="pcidevice")
router.register("vgpu-profiles", VGPUProfileViewSet, basename="vgpuprofile")
router.register("device-assignments", DeviceAssignmentViewSet, basename="deviceassignment")
# nsx
router.register("nsx-managers", NsxManagerViewSet, basename="nsxmanager")
router.register("nsx-objects", NsxObjectViewSet, basename="nsxobject")
# fabrics
register_fabrics(router)
# webhooks
router.register("webhooks", WebhookViewSet, basename="webhook")
router.register("webhook-deliveries", DeliveryViewSet, basename="webhookdelivery")

urlpatterns = [
    path("agents/join", JoinView.as_view(), name="agent-join"),
    path("agents/<slug:node>/desired-state", DesiredStateView.as_view(), name="agent-desired-state"),
    path("agents/<slug:node>/observed-state", ObservedStateView.as_view(), name="agent-observed-state"),
    path("agents/<slug:node>/credential", CredentialView.as_view(), name="agent-credential"),
    *fabric_urls,
    path("site-settings/", SiteSettingsView.as_view(), name="site-settings"),
    path("me/", MeView.as_view(), name="me"),
    # vsphere
    path("vsphere/capacity/", CapacityView.as_view(), name="vsphere-capacity"),
    path("clusters/<int:pk>/vsphere-plan/", ClusterPlanView.as_view(), name="cluster-vsphere-plan"),
    path("clusters/<int:pk>/vsphere-operations/", ClusterOperationLogView.as_view(), name="cluster-vsphere-operations"),
    *router.urls,
]
