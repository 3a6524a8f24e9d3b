"""The OpenAPI schema states the error responses the API gives, not only the successful ones.

Every error is JSON (core.rest.exception_handler): `{"detail": ..., "code": ...}` for refusals, and
`{field: [messages]}` for invalid input. Each operation lists the statuses it can answer with, so a
client (or schemathesis' status-code conformance check) knows a 409 or a 429 is part of the contract.
A view adds statuses its operations give beyond those with `error_statuses = ("404", ...)`.
A serializer states rules across its fields that JSON Schema can express (which fields go together, e.g. a
pool's kind and its range or cidr) as `schema_variants`: its request body must match one of them (given
groups of variants, one of each group: the schema lists every combination).
"""

import itertools

from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from drf_spectacular.plumbing import ResolvedComponent, force_instance, is_serializer
from rest_framework import serializers

ERROR_SCHEMA = {
    "type": "object",
    "description": "`detail` and `code` for a refused request; for invalid input, each field's messages.",
    "properties": {
        "detail": {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]},
        "code": {"type": "string"},
    },
    "additionalProperties": True,
}
ERRORS = {
    "400": "Invalid input: field-level messages",
    "401": "No valid credentials",
    "403": "Not allowed for this user or token",
    "404": "No such object (or not visible to this user)",
    "409": "Conflict: the object changed state, or the request collides with another",
    "413": "Request body too large",
    "415": "Unsupported media type (send JSON)",
    "429": "Too many requests; see Retry-After",
}
WRITES = {"POST", "PUT", "PATCH", "DELETE"}
VARIANTS = "x-enclave-variants"
NOT_BLANK = r"\S"  # unanchored: somewhere a character that is not whitespace


class AutoSchema(SpectacularAutoSchema):
    """drf-spectacular's schema with the error responses of each operation."""

    def get_operation(self, *args, **kwargs):
        operation = super().get_operation(*args, **kwargs)
        if operation is not None:
            for code in self._error_codes(operation):
                operation["responses"].setdefault(code, self._error_response(code))
        return operation

    def _map_serializer_field(self, field, direction, bypass_extensions=False):
        """References by id name a primary key: a positive integer (which ids exist is data, not schema)."""
        schema = super()._map_serializer_field(field, direction, bypass_extensions)
        if isinstance(field, serializers.PrimaryKeyRelatedField) and schema.get("type") == "integer":
            schema.setdefault("minimum", 1)
        return schema

    def _map_basic_serializer(self, serializer, direction):
        """A serializer that refuses unknown keys (400) says so: no additional properties."""
        schema = super()._map_basic_serializer(serializer, direction)
        if direction == "request" and getattr(serializer, "refuses_unknown_fields", False):
            schema["additionalProperties"] = False
        if direction == "request":
            _not_blank(serializer, schema)
        if direction == "request" and _variants(serializer):
            schema[VARIANTS] = _variants(serializer)  # anyOf/allOf, after the enum hook (postprocess_variants)
        return schema

    def _get_request_for_media_type(self, serializer, direction="request"):
        """A body that must match one of its serializer's variants is required (an empty one matches none)."""
        schema, required = super()._get_request_for_media_type(serializer, direction)
        if is_serializer(serializer) and self.method != "PATCH" and _variants(force_instance(serializer)):
            required = True
        return schema, required

    def _error_codes(self, operation: dict) -> list[str]:
        """The error statuses this operation can answer with."""
        parameters = operation.get("parameters", [])
        codes = ["401", "403", "429"]
        if self.method in WRITES or any(p["in"] == "query" for p in parameters):
            codes.append("400")  # a write may break a state or quota rule even without a body
        if any(p["in"] == "path" for p in parameters) or self.method in WRITES:
            codes.append("404")
        if self.method in WRITES:
            codes += ["409", "413", "415"]
        codes += getattr(self.view, "error_statuses", ())  # what a view answers beyond the usual
        return sorted(set(codes))

    def _error_response(self, code: str) -> dict:
        component = ResolvedComponent(name="Error", type=ResolvedComponent.SCHEMA, object="Error", schema=ERROR_SCHEMA)
        self.registry.register_on_missing(component)
        response = {"description": ERRORS[code], "content": {"application/json": {"schema": component.ref}}}
        if code == "429":
            response["headers"] = {"Retry-After": {"schema": {"type": "integer"}, "description": "Seconds to wait"}}
        return response


def postprocess_variants(result, generator, **kwargs):
    """Serializers' variants become `anyOf` once drf-spectacular has named the enums: their one-value enums
    pick a variant (a pool's kind) and are no choice sets of their own."""
    for schema in result.get("components", {}).get("schemas", {}).values():
        groups = schema.pop(VARIANTS, None)
        if groups:
            schema["anyOf"] = [_merged(combination) for combination in itertools.product(*groups)]
    return result


def _merged(variants: tuple[dict, ...]) -> dict:
    """One variant of each group as one (an anyOf of them is what generators and readers handle best)."""
    merged = {"properties": {}, "required": []}
    for variant in variants:
        if set(merged["properties"]) & set(variant.get("properties", {})):
            raise ValueError("groups of schema variants must constrain different fields")
        merged["properties"].update(variant.get("properties", {}))
        merged["required"] += variant.get("required", [])
    return {key: value for key, value in merged.items() if value}


def _not_blank(serializer, schema: dict) -> None:
    """A trimmed text field that may not be blank refuses whitespace alone: a pattern says so, unless the
    field's own pattern (drf-spectacular has added validators' by now) already does."""
    for name, field in serializer.fields.items():
        prop = schema.get("properties", {}).get(name, {})
        trimmed = isinstance(field, serializers.CharField) and field.trim_whitespace and not field.allow_blank
        if trimmed and prop.get("type") == "string" and "pattern" not in prop:
            prop["pattern"] = NOT_BLANK


def _variants(serializer) -> list[list[dict]]:
    """The serializer's `schema_variants` for a whole body, as groups (a PATCH may send any one field alone)."""
    variants = () if getattr(serializer, "partial", False) else getattr(serializer, "schema_variants", ())
    if variants and isinstance(variants[0], dict):
        return [list(variants)]
    return [list(group) for group in variants]


# core.addresses' grammar as far as JSON Schema can say it: an address of either family, a network with
# a prefix length (host bits, and which run of zero groups `::` stands for, are still checked by the API alone).
OCTET = r"(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])"
IPV4_NETWORK = rf"^({OCTET}\.){{3}}{OCTET}/(3[0-2]|[12]?[0-9])$"
# Canonical IPv6 (Python's spelling, IPv4-mapped addresses in hex too): lowercase groups without leading
# zeros, at most one `::`.
_GROUP = r"(0|[1-9a-f][0-9a-f]{0,3})"
_IPV6 = rf"({_GROUP}(:{_GROUP}){{7}}|({_GROUP}(:{_GROUP}){{0,6}})?::({_GROUP}(:{_GROUP}){{0,6}})?)"
IPV6_NETWORK = rf"^{_IPV6}/(12[0-8]|1[01][0-9]|[1-9]?[0-9])$"


def _either(options: list[dict], field) -> dict:
    if field.allow_blank:
        options = [*options, {"type": "string", "enum": [""]}]
    schema = {"anyOf": options}
    if field.help_text:
        schema["description"] = str(field.help_text)
    return schema


class AddressFieldExtension(OpenApiSerializerFieldExtension):
    target_class = "core.fields.AddressField"

    def map_serializer_field(self, auto_schema, direction):
        return _either([{"type": "string", "format": "ipv4"}, {"type": "string", "format": "ipv6"}], self.target)


class NetworkFieldExtension(OpenApiSerializerFieldExtension):
    target_class = "core.fields.NetworkField"

    def map_serializer_field(self, auto_schema, direction):
        options = [{"type": "string", "pattern": IPV4_NETWORK}, {"type": "string", "pattern": IPV6_NETWORK}]
        return _either(options, self.target)


class NetworkListFieldExtension(OpenApiSerializerFieldExtension):
    target_class = "core.fields.NetworkListField"

    def map_serializer_field(self, auto_schema, direction):
        items = {"anyOf": [{"type": "string", "pattern": IPV4_NETWORK}, {"type": "string", "pattern": IPV6_NETWORK}]}
        schema = {"type": "array", "items": items}
        if self.target.max_length is not None:
            schema["maxItems"] = self.target.max_length
        return schema
