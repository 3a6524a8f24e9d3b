"""Read-only admin views of notices (the services write them; an edit here would bypass the audit)."""

from django.contrib import admin

from core.admin import ReadOnlyAdmin
from notices.models import Notice


@admin.register(Notice)
class NoticeAdmin(ReadOnlyAdmin):
    list_display = ["subject", "user", "kind", "created"]
    list_filter = ["kind"]
