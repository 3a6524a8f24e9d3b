"""Streaming CSV and JSON exports of the audit log."""

import csv
import json

from django.core.serializers.json import DjangoJSONEncoder
from django.http import StreamingHttpResponse

from audit.serializers import EXPORT_FIELDS

CHUNK = 500


class _Echo:
    """A file-like object whose write returns the line, for csv.writer streaming."""

    def write(self, value):
        return value


def _rows(queryset):
    for event in queryset.values(*[f if f not in ("actor", "tenant") else f"{f}_id" for f in EXPORT_FIELDS]).iterator(
        chunk_size=CHUNK
    ):
        event["actor"], event["tenant"] = event.pop("actor_id"), event.pop("tenant_id")
        yield event


def csv_response(queryset, filename="audit.csv") -> StreamingHttpResponse:
    """Stream events as CSV, before/after as JSON text."""
    writer = csv.writer(_Echo())

    def lines():
        yield writer.writerow(EXPORT_FIELDS)
        for row in _rows(queryset):
            values = [row[f] for f in EXPORT_FIELDS]
            yield writer.writerow(
                [json.dumps(v, cls=DjangoJSONEncoder) if isinstance(v, dict | list) else v for v in values]
            )

    response = StreamingHttpResponse(lines(), content_type="text/csv")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def json_response(queryset, filename="audit.json") -> StreamingHttpResponse:
    """Stream events as one JSON array."""

    def chunks():
        yield "["
        for index, row in enumerate(_rows(queryset)):
            yield ("," if index else "") + json.dumps(row, cls=DjangoJSONEncoder)
        yield "]"

    response = StreamingHttpResponse(chunks(), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
