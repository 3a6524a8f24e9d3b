"""Admin for tenants; changes made here go through the services so they are audited."""

from django.contrib import admin

from audit.admin_base import AuditedAdmin
from tenants import services
from tenants.models import Membership, Quota, Tenant, VirtualCluster


class MembershipInline(admin.TabularInline):
    """Read-only here: memberships change on the tenant page of the portal, which audits them."""

    model = Membership
    extra = 0
    readonly_fields = ["user", "role", "created"]

    def has_add_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Tenant)
class TenantAdmin(AuditedAdmin):
    list_display = ["slug", "name", "created"]
    search_fields = ["slug", "name"]
    inlines = [MembershipInline]

    def get_readonly_fields(self, request, obj=None):
        """A tenant's slug is fixed once created: its VMs', port groups' and nodes' names carry it."""
        return ["slug"] if obj is not None else []

    def save_model(self, request, obj, form, change):
        if change:
            services.update_tenant(obj, **{f: getattr(obj, f) for f in form.changed_data})
        else:
            created = services.create_tenant(obj.slug, obj.name, obj.description)
            obj.pk = created.pk


@admin.register(Quota)
class QuotaAdmin(AuditedAdmin):
    list_display = ["tenant", "max_nodes", "max_vcpus", "max_memory_gb", "max_vfs", "max_segments",
                    "max_pending_segments"]  # fmt: skip

    def save_model(self, request, obj, form, change):
        services.update_quota(obj, **{f: getattr(obj, f) for f in form.changed_data})

    def has_delete_permission(self, request, obj=None):
        """A tenant always has a quota (lower it to zero instead)."""
        return False


@admin.register(VirtualCluster)
class VirtualClusterAdmin(AuditedAdmin):
    list_display = ["__str__", "state", "workload_class", "worker_count", "interconnect", "lease_end"]
    list_select_related = ["tenant"]  # __str__ names the tenant: one join, not a query per row
    list_filter = ["state", "workload_class", "interconnect", "network_mode"]
    search_fields = ["name", "tenant__slug"]
    readonly_fields = ["state", "generation", "observed_generation", "endorsed_by", "decided_by"]

    def has_change_permission(self, request, obj=None):
        """State changes go through the portal's actions, which audit them."""
        return False
