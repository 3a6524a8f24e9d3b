"""Admin for node pools and nodes (read-mostly: changes go through the portal's services)."""

from django.contrib import admin

from agents.models import JoinToken, Node, NodePool, PoolSubnet
from audit.admin_base import AuditedAdmin


class PoolSubnetInline(admin.TabularInline):
    model = PoolSubnet
    extra = 0
    readonly_fields = ["cidr", "dstport"]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(NodePool)
class NodePoolAdmin(AuditedAdmin):
    list_display = ["name", "multicast_group", "created"]
    inlines = [PoolSubnetInline]

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Node)
class NodeAdmin(AuditedAdmin):
    list_display = ["name", "pool", "status", "address", "desired_generation", "applied_generation", "last_seen"]
    list_filter = ["status", "pool"]
    readonly_fields = [f.name for f in Node._meta.fields]

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(JoinToken)
class JoinTokenAdmin(AuditedAdmin):
    list_display = ["hint", "pool", "node_name", "expires_at", "used_at"]

    def has_change_permission(self, request, obj=None):
        return False
