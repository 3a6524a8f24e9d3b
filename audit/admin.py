"""Read-only admin for audit events."""

from django.contrib import admin

from audit.models import AuditEvent, ChainCheck, ChainLink
from core.admin import ReadOnlyAdmin


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnlyAdmin):
    list_display = ["created", "actor_label", "actor_kind", "action", "object_type", "object_repr", "request_id",
                    "client_request_id"]  # fmt: skip
    list_filter = ["actor_kind", "object_type"]
    search_fields = ["actor_label", "action", "object_repr", "request_id"]


@admin.register(ChainLink)
class ChainLinkAdmin(ReadOnlyAdmin):
    list_display = ["seq", "event", "hash"]


@admin.register(ChainCheck)
class ChainCheckAdmin(ReadOnlyAdmin):
    list_display = ["checked_at", "ok", "links", "head_seq", "first_bad_event", "problem"]
