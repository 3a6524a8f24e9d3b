"""Read-only API over the audit log, with CSV/JSON export."""

from django.db.models import Q
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, pagination
from rest_framework.decorators import action

from audit import export
from audit.filtersets import AuditEventFilterSet
from audit.models import AuditEvent
from audit.serializers import AuditEventSerializer
from portal.api import TenantScopedViewSet
from tenants.access import tenant_ids


class AuditCursorPagination(pagination.CursorPagination):
    """Keyset pages, newest first: `next`/`previous` cursors, no COUNT over millions of events."""

    ordering = "-id"
    page_size = 50
    page_size_query_param = "limit"
    max_page_size = 1000


class AuditEventViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, TenantScopedViewSet):
    """Site admins see every event; tenant members see their tenants' events. Newest first."""

    queryset = AuditEvent.objects.all()
    serializer_class = AuditEventSerializer
    filterset_class = AuditEventFilterSet
    pagination_class = AuditCursorPagination
    filter_backends = [DjangoFilterBackend]  # the cursor fixes the order

    def get_queryset(self):
        """Admins see all events; others their tenants' events and their own actions."""
        user = self.request.user
        if user.is_staff:
            return AuditEvent.objects.all()
        return AuditEvent.objects.filter(Q(tenant__in=tenant_ids(user)) | Q(actor=user))

    @extend_schema(
        parameters=[OpenApiParameter("as", str, enum=["csv", "json"], default="csv")],
        responses={(200, "text/csv"): OpenApiTypes.STR, (200, "application/json"): OpenApiTypes.STR},
    )
    @action(detail=False, methods=["get"])
    def export(self, request):
        """Download the (filtered) events as CSV or JSON."""
        events = self.filter_queryset(self.get_queryset()).order_by("created", "id")
        if request.query_params.get("as") == "json":
            return export.json_response(events)
        return export.csv_response(events)
