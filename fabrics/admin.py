"""Admin for fabrics (read-only: changes go through the API and the services, which keep desired state in step)."""

from django.contrib import admin

from fabrics.models import Fabric, PartitionKey, SharedPort


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Fabric)
class FabricAdmin(ReadOnlyAdmin):
    list_display = ["name", "kind", "generation", "applied_generation", "last_seen"]
    exclude = ["desired", "last_report"]


@admin.register(SharedPort)
class SharedPortAdmin(ReadOnlyAdmin):
    list_display = ["fabric", "guid", "description"]


@admin.register(PartitionKey)
class PartitionKeyAdmin(ReadOnlyAdmin):
    list_display = ["fabric", "tenant", "pkey", "state", "allocated", "released", "reusable_after"]
    list_filter = ["fabric", "state"]
