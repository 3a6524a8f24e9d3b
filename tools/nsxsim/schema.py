"""Strict validation of JSON bodies against the NSX SDK's binding types (vcf-nsx's model_client)."""

from __future__ import annotations

import functools

from vcf.nsx import model_client as m
from vmware.vapi.bindings import type as t

from .errors import invalid

STRINGS = (t.StringType, t.SecretType, t.URIType, t.DateTimeType, t.IdType, t.BlobType)
ANYTHING = (t.OpaqueType, t.AnyErrorType, t.VoidType)


def model(name: str):
    """The SDK class of this name (a 400 when there is none)."""
    cls = getattr(m, name, None)
    if not isinstance(name, str) or cls is None or not hasattr(cls, "get_binding_type"):
        raise invalid(f"Unknown resource_type {name!r}: no such type in the NSX API.")
    return cls


def struct_of(name: str) -> t.StructType:
    """The StructType of an SDK class."""
    return model(name).get_binding_type()


def class_name(struct: t.StructType) -> str:
    """The SDK class name of a struct type (Segment, not vcf.nsx.model.segment)."""
    cls = struct.binding_class
    return cls.__name__ if cls is not None else struct.name


@functools.cache
def enum_values(name: str) -> dict[str, frozenset[str]]:
    """Allowed values per field, read from the class constants (ACTION_ALLOW = "ALLOW" for field action)."""
    cls = model(name)
    fields = cls.get_binding_type().get_field_names()
    constants = [c for c in vars(cls) if c.isupper() and isinstance(vars(cls)[c], str)]
    found: dict[str, frozenset[str]] = {}
    for field in fields:
        prefix = field.upper() + "_"
        longer = [f.upper() + "_" for f in fields if f != field and f.upper().startswith(prefix)]
        mine = [c for c in constants if c.startswith(prefix) and not any(c.startswith(p) for p in longer)]
        if mine:
            found[field] = frozenset(vars(cls)[c] for c in mine)
    return found


@functools.cache
def is_kind_of(name: str, base: str) -> bool:
    """Whether SDK type `name` extends `base`: all its fields, and a resource_type the base lists (if it does)."""
    if name == base:
        return True
    cls = getattr(m, name, None)
    if cls is None or not hasattr(cls, "get_binding_type"):
        return False
    listed = enum_values(base).get("resource_type")
    if listed and name not in listed:
        return False
    if base.startswith("Child") and not name.startswith("Child"):
        return False
    return set(struct_of(base).get_field_names()) <= set(cls.get_binding_type().get_field_names())


def json_type(value) -> str:
    """The JSON name of a Python value's type."""
    names = {bool: "boolean", int: "integer", float: "number", str: "string", list: "array", dict: "object"}
    return "null" if value is None else names.get(type(value), type(value).__name__)


def validate(value, name: str, where: str, skip: tuple[str, ...] = ()) -> None:
    """Check `value` against SDK type `name`; 400 naming the field and `where` (an object path) otherwise."""
    _struct(value, struct_of(name), where, "", skip)


def _struct(value, struct: t.StructType, where: str, at: str, skip=()) -> None:
    """One struct: an object with only the struct's fields, each of its type."""
    name = class_name(struct)
    if not isinstance(value, dict):
        raise invalid(f"{_loc(where, at)}: expected an object ({name}), got {json_type(value)}.")
    for key, item in value.items():
        if key in skip:
            continue
        field = struct.get_field(key)
        if field is None:
            raise invalid(f"Field '{key}' is not allowed in {name} ({_loc(where, _join(at, key))}).")
        _value(item, field, where, _join(at, key))
        _enum(item, name, key, where, _join(at, key))
    for key in struct.get_field_names():
        if key not in value and not isinstance(struct.get_field(key), t.OptionalType):
            raise invalid(f"Field '{key}' is required in {name} ({_loc(where, _join(at, key))}).")


def _enum(item, name: str, key: str, where: str, at: str) -> None:
    """A string (or list of strings) field with constants must hold one of them."""
    allowed = enum_values(name).get(key) if name in vars(m) else None
    if not allowed or item is None:
        return
    for one in item if isinstance(item, list) else [item]:
        if one not in allowed:
            choices = ", ".join(sorted(allowed))
            raise invalid(f"Field '{key}' of {name} has invalid value {one!r} ({_loc(where, at)}); allowed: {choices}.")


def _value(item, field: t.BindingType, where: str, at: str) -> None:
    """One value of a binding type."""
    if isinstance(field, t.OptionalType):
        if item is not None:
            _value(item, field.element_type, where, at)
    elif isinstance(field, (t.ListType, t.SetType)):
        _expect(item, list, "array", where, at)
        for i, element in enumerate(item):
            _value(element, field.element_type, where, f"{at}[{i}]")
    elif isinstance(field, t.MapType):
        _expect(item, dict, "object", where, at)
        for key, element in item.items():
            _value(element, field.value_type, where, f"{at}[{key!r}]")
    elif isinstance(field, t.ReferenceType):
        _value(item, field.resolved_type, where, at)
    elif isinstance(field, t.DynamicStructType):
        _dynamic(item, field, where, at)
    elif isinstance(field, t.StructType):
        _struct(item, _chosen(item, field, where, at), where, at)
    else:
        _scalar(item, field, where, at)


def _scalar(item, field: t.BindingType, where: str, at: str) -> None:
    """Strings, numbers, booleans and enums."""
    if isinstance(field, STRINGS):
        _expect(item, str, "string", where, at)
    elif isinstance(field, t.IntegerType):
        _expect(item, int, "integer", where, at)
    elif isinstance(field, t.DoubleType):
        _expect(item, (int, float), "number", where, at)
    elif isinstance(field, t.BooleanType):
        _expect(item, bool, "boolean", where, at)
    elif isinstance(field, t.EnumType):
        _expect(item, str, "string", where, at)
        values = field.binding_class.get_values()
        if item not in values:
            raise invalid(f"{_loc(where, at)}: invalid value {item!r}; allowed: {', '.join(sorted(values))}.")
    elif not isinstance(field, ANYTHING):
        raise invalid(f"{_loc(where, at)}: type {type(field).__name__} is not supported by this stand-in.")


def _expect(item, types, label: str, where: str, at: str) -> None:
    """A JSON value of this type (a boolean is not a number)."""
    if not isinstance(item, types) or (isinstance(item, bool) and label in ("integer", "number")):
        raise invalid(f"{_loc(where, at)}: expected {label}, got {json_type(item)}.")


def _chosen(item, struct: t.StructType, where: str, at: str) -> t.StructType:
    """A statically typed struct, or the type its resource_type names when that type extends it."""
    given = item.get("resource_type") if isinstance(item, dict) else None
    name = class_name(struct)
    if given is None or given == name or name not in vars(m) or "resource_type" not in struct.get_field_names():
        return struct
    if isinstance(given, str) and is_kind_of(given, name):
        return struct_of(given)
    if given in enum_values(name).get("resource_type", ()):
        return struct
    raise invalid(f"{_loc(where, at)}: resource_type {given!r} does not match {name}.")


def _dynamic(item, field: t.DynamicStructType, where: str, at: str) -> None:
    """A polymorphic object: its resource_type picks the SDK type, which must extend the declared bases."""
    bases = [ref.resolved_type for ref in field.has_fields_of_type or []]
    if not isinstance(item, dict):
        raise invalid(f"{_loc(where, at)}: expected an object, got {json_type(item)}.")
    if not bases:
        return
    given = item.get("resource_type")
    base_names = [class_name(b) for b in bases]
    if not isinstance(given, str):
        raise invalid(f"{_loc(where, at)}: resource_type is required (a kind of {', '.join(base_names)}).")
    struct = struct_of(given)
    for base in base_names:
        if not is_kind_of(given, base):
            raise invalid(f"{_loc(where, at)}: resource_type {given!r} is not a kind of {base}.")
    _struct(item, struct, where, at)


def _join(at: str, key: str) -> str:
    """A dotted field path."""
    return f"{at}.{key}" if at else key


def _loc(where: str, at: str) -> str:
    """Where in the request: the object's path, then the field."""
    return f"{where}, field {at}" if at else where
