"""Router registrations and paths of the vsphere API; portal/api_urls.py includes both."""

from django.urls import path

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


def register(router) -> None:
    """Add the vsphere endpoints to the project's /api/v1/ router."""
    router.register("vcenters", VCenterViewSet, basename="vcenter")
    router.register("hosts", HostViewSet, basename="vsphere-host")
    router.register("physical-functions", PhysicalFunctionViewSet, basename="physicalfunction")
    router.register("vf-assignments", VFAssignmentViewSet, basename="vfassignment")
    router.register("pci-devices", PCIDeviceViewSet, basename="pcidevice")
    router.register("vgpu-profiles", VGPUProfileViewSet, basename="vgpuprofile")
    router.register("device-assignments", DeviceAssignmentViewSet, basename="deviceassignment")


urlpatterns = [
    path("vsphere/capacity/", CapacityView.as_view(), name="vsphere-capacity"),
    path("clusters/<int:pk>/vsphere-plan/", ClusterPlanView.as_view(), name="cluster-vsphere-plan"),
    path("clusters/<int:pk>/vsphere-operations/", ClusterOperationLogView.as_view(), name="cluster-vsphere-operations"),
]
