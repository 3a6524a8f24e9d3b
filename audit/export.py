"""Streaming CSV and JSON exports of the audit log."""

import csv
import json

from django.core.serializers.json import DjangoJSONEncoder
from django.http import StreamingHttpResponse

from audit.serializers import EXPORT_FIELDS

CHUNK = 500
# A cell starting with one of these is a formula to spreadsheets (OWASP "CSV injection").
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r", "\n")


def neutralise(value):
    """Return a CSV cell that a spreadsheet shows as text, never evaluates."""
    if isinstance(value, dict | list):
        value = json.dumps(value, cls=DjangoJSONEncoder)
    if isinstance(value, str) and value.startswith(FORMULA_PREFIXES):
        return "'" + value
    return value


class _Echo:
    """A file-like object whose write returns the line, for csv.writer streaming."""

    def write(self, value):
        return value


def _rows(queryset, tenant_names=None):
    """Events as dicts; the tenant by id (the API's references), or by the name `tenant_names` maps its id to."""
    names = [f if f not in ("actor", "tenant") else f"{f}_id" for f in EXPORT_FIELDS]
    for event in queryset.values(*names).iterator(chunk_size=CHUNK):
        event["actor"], event["tenant"] = event.pop("actor_id"), event.pop("tenant_id")
        if tenant_names is not None:
            event["tenant"] = tenant_names.get(event["tenant"], event["tenant"])
        yield event


def csv_response(queryset, filename="audit.csv", tenant_names=None) -> StreamingHttpResponse:
    """Stream events as CSV, before/after as JSON text, formula-like cells neutralised."""
    writer = csv.writer(_Echo())

    def lines():
        yield writer.writerow(EXPORT_FIELDS)
        for row in _rows(queryset, tenant_names):
            yield writer.writerow([neutralise(row[f]) for f in EXPORT_FIELDS])

    response = StreamingHttpResponse(lines(), content_type="text/csv")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def json_response(queryset, filename="audit.json", tenant_names=None) -> StreamingHttpResponse:
    """Stream events as one JSON array."""

    def chunks():
        yield "["
        for index, row in enumerate(_rows(queryset, tenant_names)):
            yield ("," if index else "") + json.dumps(row, cls=DjangoJSONEncoder)
        yield "]"

    response = StreamingHttpResponse(chunks(), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
