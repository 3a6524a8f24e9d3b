"""REST settings hooks: pagination and JSON errors (no viewset imports: DRF loads this early)."""

from django.core.exceptions import RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions, pagination, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from portal.errors import ServiceError


class Pagination(pagination.LimitOffsetPagination):
    """Limit/offset pagination with a bounded page size."""

    default_limit = 50
    max_limit = 1000


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
