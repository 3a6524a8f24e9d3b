"""API serializer of audit events (read-only)."""

from rest_framework import serializers

from audit.models import AuditEvent

EXPORT_FIELDS = [
    "id", "created", "actor_kind", "actor_label", "actor", "tenant", "action", "object_type",
    "object_id", "object_repr", "before", "after", "message", "request_id", "client_request_id", "source_ip",
]  # fmt: skip


class AuditEventSerializer(serializers.ModelSerializer):
    # A plain id (audit sits below tenants), shown as the foreign key it was.
    tenant = serializers.IntegerField(source="tenant_id", read_only=True, allow_null=True, min_value=1)

    class Meta:
        model = AuditEvent
        fields = EXPORT_FIELDS
        read_only_fields = EXPORT_FIELDS
