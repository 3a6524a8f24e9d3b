"""The API's JSON parser: bodies bounded in size and nesting depth (its own module: DRF loads it early)."""

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from rest_framework import exceptions, parsers
from rest_framework.utils import json

MAX_JSON_DEPTH = 32


def json_depth(value) -> int:
    """How deeply lists and objects nest in a parsed JSON value (iterative: no recursion limit)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth)
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


class BoundedJSONParser(parsers.JSONParser):
    """JSON bodies bounded in size (DATA_UPLOAD_MAX_MEMORY_SIZE) and nesting depth: 413/400, never 500."""

    def parse(self, stream, media_type=None, parser_context=None):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise RequestDataTooBig("The request body is too large.")
        encoding = parsers.get_encoding(parser_context or {})
        try:
            data = json.loads(raw.decode(encoding), parse_constant=json.strict_constant if self.strict else None)
        except RecursionError:
            raise exceptions.ParseError(f"JSON parse error - nested deeper than {MAX_JSON_DEPTH} levels") from None
        except ValueError as exc:
            raise exceptions.ParseError(f"JSON parse error - {exc}") from None
        if json_depth(data) > MAX_JSON_DEPTH:
            raise exceptions.ParseError(f"JSON parse error - nested deeper than {MAX_JSON_DEPTH} levels")
        return data
