"""Admin helpers that read no app: a model admin that changes nothing."""

from django.contrib import admin


class ReadOnlyAdmin(admin.ModelAdmin):
    """A model admin that shows everything and changes nothing (edits would bypass the audit)."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
