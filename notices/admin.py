"""Read-only admin views of notices (the services write them; an edit here would bypass the audit)."""

from django.contrib import admin

from notices.models import Notice
from portal.admin import ReadOnlyAdmin


@admin.register(Notice)
class NoticeAdmin(ReadOnlyAdmin):
    list_display = ["subject", "user", "kind", "created"]
    list_filter = ["kind"]
