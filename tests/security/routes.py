"""What the abuse table must cover: every writable API route and field, every page that takes a POST."""

import functools
import inspect
import re

from django.urls import URLPattern, URLResolver, get_resolver, resolve

WRITE_METHODS = ("post", "put", "patch", "delete")
PARAM = re.compile(r"\{[^}]+\}")


def _patterns(resolver=None, namespace="", prefix=""):
    """(name, pattern, route prefix) of every named URL pattern, with its namespace."""
    for pattern in (resolver or get_resolver()).url_patterns:
        if isinstance(pattern, URLResolver):
            ns = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            yield from _patterns(pattern, ns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern) and pattern.name:
            yield namespace + pattern.name, pattern, prefix + str(pattern.pattern)


def _api_methods(callback) -> set[str]:
    """Write methods a DRF view answers: a viewset's mapped actions, or an APIView's handlers."""
    if getattr(callback, "actions", None):
        return {m for m in callback.actions if m in WRITE_METHODS}
    view_class = getattr(callback, "view_class", None) or getattr(callback, "cls", None)
    return {m for m in WRITE_METHODS if view_class is not None and hasattr(view_class, m)}


@functools.cache
def writable_api_routes() -> frozenset[tuple[str, str]]:
    """(route name, method) of every API route that changes something."""
    out = set()
    for name, pattern, route in _patterns():
        if route.startswith("api/v1/") and ".json" not in name:
            out |= {(name, m) for m in _api_methods(pattern.callback)}
    return frozenset(out)


def _helpers(func, seen: set) -> list:
    """The function and the same-module functions it calls, transitively (views delegate to helpers)."""
    if not inspect.isfunction(func) or func in seen:
        return []
    seen.add(func)
    found = [func]
    for name in func.__code__.co_names:
        helper = func.__globals__.get(name)
        if inspect.isfunction(helper) and helper.__module__ == func.__module__:
            found += _helpers(helper, seen)
    return found


def _posts(view) -> bool:
    """Whether a page view handles POST: it or a helper reads request.POST or checks for POST."""
    if hasattr(view, "view_class"):
        return hasattr(view.view_class, "post")
    wrapped = view
    while hasattr(wrapped, "__wrapped__"):  # require_POST keeps its method list in a closure
        if "POST" in repr([c.cell_contents for c in wrapped.__closure__ or ()]):
            return True
        wrapped = wrapped.__wrapped__
    return any("POST" in inspect.getsource(f) for f in _helpers(wrapped, set()))


@functools.cache
def writable_page_routes() -> frozenset[str]:
    """Route names of every page (not API, not Django admin) that accepts a POST."""
    out = set()
    for name, pattern, route in _patterns():
        if route.startswith(("api/", "admin/")) or name.startswith("admin:"):
            continue
        if _posts(pattern.callback):
            out.add(name)
    return frozenset(out)


def _request_fields(operation: dict, components: dict) -> set[str]:
    """Writable properties of an operation's request body (any media type)."""
    fields = set()
    for media in (operation.get("requestBody") or {}).get("content", {}).values():
        schema = media.get("schema", {})
        if "$ref" in schema:
            schema = components[schema["$ref"].rsplit("/", 1)[1]]
        fields |= {k for k, v in schema.get("properties", {}).items() if not v.get("readOnly")}
    return fields


@functools.cache
def writable_fields() -> frozenset[tuple[str, str]]:
    """(route name, field) for every writable field the OpenAPI schema documents."""
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema.get("components", {}).get("schemas", {})
    out = set()
    for path, operations in schema["paths"].items():
        name = resolve(PARAM.sub("1", path)).url_name
        for method, operation in operations.items():
            if method in WRITE_METHODS:
                out |= {(name, f) for f in _request_fields(operation, components)}
    return frozenset(out)
