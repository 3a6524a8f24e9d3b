"""Read-only admin for audit events."""

from django.contrib import admin

from audit.models import AuditEvent


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    list_display = ["created", "actor_label", "actor_kind", "action", "object_type", "object_repr", "request_id"]
    list_filter = ["actor_kind", "object_type"]
    search_fields = ["actor_label", "action", "object_repr", "request_id"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
