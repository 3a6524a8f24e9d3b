"""Read-only API over the audit log, with CSV/JSON export."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions, mixins, pagination, viewsets
from rest_framework.decorators import action

from audit import export
from audit.filtersets import AuditEventFilterSet
from audit.models import AuditEvent
from audit.readers import visible_events
from audit.serializers import AuditEventSerializer
from core.errors import InvalidRequest
from core.filters import FilterBackend
from core.rest import int_param

FORMATS = {"csv": export.csv_response, "json": export.json_response}


class AuditCursorPagination(pagination.CursorPagination):
    """Keyset pages, newest first: `next`/`previous` cursors, no COUNT over millions of events."""

    ordering = "-id"
    page_size = 50
    page_size_query_param = "limit"
    max_page_size = 1000

    def get_page_size(self, request):
        """A limit the schema does not allow is a 400, as on every other list (core.rest.Pagination)."""
        return int_param(request, self.page_size_query_param, self.page_size, 1, self.max_page_size)

    def decode_cursor(self, request):
        """A cursor that was never handed out is bad input (400), not a missing page (DRF's 404)."""
        try:
            return super().decode_cursor(request)
        except exceptions.NotFound:
            raise exceptions.ValidationError({self.cursor_query_param: ["Invalid cursor."]}) from None

    def get_schema_operation_parameters(self, view):
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_size_query_param:
                parameter["schema"].update(minimum=1, maximum=self.max_page_size)
        return parameters


class AuditEventViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Site admins see every event; tenant members see their tenants' events. Newest first."""

    queryset = AuditEvent.objects.all()
    serializer_class = AuditEventSerializer
    filterset_class = AuditEventFilterSet
    pagination_class = AuditCursorPagination
    filter_backends = [FilterBackend]  # the cursor fixes the order

    def get_queryset(self):
        """Admins see all events; others their tenants' events and their own account's."""
        return visible_events(self.request.user)

    @extend_schema(
        parameters=[OpenApiParameter("as", str, enum=list(FORMATS), default="csv")],
        responses={(200, "text/csv"): OpenApiTypes.STR, (200, "application/json"): {"type": "array", "items": {
            "type": "object", "additionalProperties": True}}},
    )  # fmt: skip
    @action(detail=False, methods=["get"])
    def export(self, request):
        """Download the (filtered) events as CSV or JSON."""
        kind = request.query_params.get("as", "csv")
        if kind not in FORMATS:
            raise InvalidRequest("Export as csv or json.", "as")
        events = self.filter_queryset(self.get_queryset()).order_by("created", "id")
        return FORMATS[kind](events)
