"""Read-only admin for vSphere inventory; changes go through the API and pages, which audit them."""

from django.contrib import admin

from core.admin import ReadOnlyAdmin
from vsphere.models import Host, OperationLog, PhysicalFunction, VCenter, VFAssignment


@admin.register(VCenter)
class VCenterAdmin(ReadOnlyAdmin):
    list_display = ["name", "host", "datacenter", "compute_cluster", "verify_tls", "insecure", "last_discovery"]
    readonly_fields = ["inventory", "last_discovery", "discovery_error"]


@admin.register(Host)
class HostAdmin(ReadOnlyAdmin):
    list_display = ["name", "vcenter", "compute_cluster", "discovered"]


@admin.register(PhysicalFunction)
class PhysicalFunctionAdmin(ReadOnlyAdmin):
    list_display = ["host", "pci_id", "pnic", "model", "link_type", "firmware_num_vfs", "max_vfs", "source"]
    list_filter = ["link_type", "source"]


@admin.register(VFAssignment)
class VFAssignmentAdmin(ReadOnlyAdmin):
    list_display = ["pf", "slot", "cluster", "node_name", "created"]


@admin.register(OperationLog)
class OperationLogAdmin(ReadOnlyAdmin):
    list_display = ["cluster", "generation", "status", "step", "created"]
    list_filter = ["status"]
