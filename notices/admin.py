"""Read-only admin views of notices."""

from django.contrib import admin

from notices.models import Notice


@admin.register(Notice)
class NoticeAdmin(admin.ModelAdmin):
    list_display = ["subject", "user", "kind", "created"]
    list_filter = ["kind"]
    readonly_fields = ["user", "kind", "subject", "body", "url", "created"]
