"""REST settings hooks: pagination and JSON errors (no viewset imports: DRF loads this early)."""

import sys

from django.core.exceptions import RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import OperationalError
from django.http import Http404, HttpResponse, JsonResponse
from django.views import defaults
from psycopg_pool import PoolTimeout
from rest_framework import exceptions, pagination, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from core.errors import ServiceError


def int_param(request, name: str, default: int, low: int, high: int | None) -> int:
    """A whole-number query parameter given at most once, within [low, high]; a 400 otherwise."""
    values = request.query_params.getlist(name)
    if not values:
        return default
    raw = values[0]
    if len(values) > 1:
        raise exceptions.ValidationError({name: ["Give it once."]})
    if not (raw.isascii() and raw.isdigit()) or int(raw) < low or (high is not None and int(raw) > high):
        bounds = f"from {low} to {high}" if high is not None else f"{low} or more"
        raise exceptions.ValidationError({name: [f"Use a whole number {bounds}."]})
    return int(raw)


class Pagination(pagination.LimitOffsetPagination):
    """Limit/offset pagination with a bounded page size; a limit or offset the schema does not allow is a 400."""

    default_limit = 50
    max_limit = 1000

    def get_limit(self, request):
        return int_param(request, self.limit_query_param, self.default_limit, 1, self.max_limit)

    def get_offset(self, request):
        return int_param(request, self.offset_query_param, 0, 0, None)

    def get_schema_operation_parameters(self, view):
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.limit_query_param:
                parameter["schema"].update(minimum=1, maximum=self.max_limit)
            elif parameter["name"] == self.offset_query_param:
                parameter["schema"].update(minimum=0)
        return parameters


def exception_handler(exc, context):
    """Render every error as JSON: service errors by their status, validation errors per field."""
    if isinstance(exc, ServiceError):
        return Response(exc.as_dict(), status=exc.status_code)
    if isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else {"detail": exc.messages}
        return Response(detail, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, RequestDataTooBig):
        return Response({"detail": "The request body is too large."}, status=413)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(response.data, list):
        response.data = {"detail": response.data}
    return response


def not_found(request, exception=None):
    """A path no route matches: JSON under /api/ (every API error is JSON), the HTML page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Not found.", "code": "not_found"}, status=404)
    return defaults.page_not_found(request, exception)


BUSY_RETRY_AFTER = 5  # seconds


def server_error(request):
    """An uncaught error: a 500, except when every database connection of the process was busy (an overload,
    not a fault): 503 with Retry-After, so agents and clients back off; JSON under /api/ as every API error."""
    error = sys.exc_info()[1]
    if not (isinstance(error, OperationalError) and isinstance(error.__cause__, PoolTimeout)):
        return defaults.server_error(request)
    detail = "The site is busy: no database connection was free in time; retry shortly."
    headers = {"Retry-After": str(BUSY_RETRY_AFTER)}
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": detail, "code": "busy"}, status=503, headers=headers)
    return HttpResponse(f"<h1>Busy</h1><p>{detail}</p>", status=503, headers=headers)
