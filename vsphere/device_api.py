"""REST API of the device inventory: GPUs, passthrough devices, vGPU profiles (site admins), and who holds what."""

from django.db.models import Count
from rest_framework import mixins, serializers, viewsets

from tenants.api_base import SITE_ADMIN_ONLY, TenantScopedViewSet
from vsphere.filtersets import DeviceAssignmentFilterSet, PCIDeviceFilterSet, VGPUProfileFilterSet
from vsphere.models import DeviceAssignment, PCIDevice, VGPUProfile


class PCIDeviceSerializer(serializers.ModelSerializer):
    host_name = serializers.CharField(source="host.name", read_only=True)
    used = serializers.IntegerField(read_only=True, help_text="Slots held by clusters (vGPU instances or the whole)")

    class Meta:
        model = PCIDevice
        fields = ["id", "host", "host_name", "pci_id", "kind", "mode", "vendor_id", "device_id", "vendor_name",
                  "device_name", "memory_gib", "used", "source", "discovered"]  # fmt: skip
        read_only_fields = fields


class VGPUProfileSerializer(serializers.ModelSerializer):
    class Meta:
        model = VGPUProfile
        fields = ["id", "vcenter", "name", "gpu_model", "framebuffer_gib", "per_gpu", "profile_class", "discovered"]
        read_only_fields = fields


class DeviceAssignmentSerializer(serializers.ModelSerializer):
    host = serializers.CharField(source="device.host.name", read_only=True)
    pci_id = serializers.CharField(source="device.pci_id", read_only=True)
    kind = serializers.CharField(source="device.kind", read_only=True)
    profile = serializers.CharField(source="profile.name", read_only=True, default=None)
    tenant = serializers.IntegerField(source="cluster.tenant_id", read_only=True)

    class Meta:
        model = DeviceAssignment
        fields = ["id", "device", "host", "pci_id", "kind", "profile", "slot", "cluster", "tenant", "node_name",
                  "created"]  # fmt: skip
        read_only_fields = fields


class PCIDeviceViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Devices hosts hand to VMs whole (DirectPath I/O) or share as vGPUs, as discovery found them."""

    queryset = PCIDevice.objects.select_related("host").annotate(used=Count("assignments"))
    queryset = queryset.order_by("host__name", "pci_id")
    serializer_class = PCIDeviceSerializer
    filterset_class = PCIDeviceFilterSet
    permission_classes = SITE_ADMIN_ONLY


class VGPUProfileViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """NVIDIA vGPU profiles the site's GPUs run, and how many of each one GPU holds."""

    queryset = VGPUProfile.objects.order_by("vcenter", "framebuffer_gib", "name")
    serializer_class = VGPUProfileSerializer
    filterset_class = VGPUProfileFilterSet
    permission_classes = SITE_ADMIN_ONLY


class DeviceAssignmentViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, TenantScopedViewSet):
    """Devices held by clusters: site admins see all, tenant members their own clusters' devices."""

    queryset = DeviceAssignment.objects.select_related("device__host", "profile", "cluster")
    serializer_class = DeviceAssignmentSerializer
    filterset_class = DeviceAssignmentFilterSet
    tenant_field = "cluster__tenant"
