"""Applying bodies to a transaction: the hierarchical PATCH of /infra and the single-object calls."""

from __future__ import annotations

from . import errors, schema
from .kinds import INLINE, KINDS, WRAPPERS, Kind, child_path, kind_of
from .store import Store, Transaction

MAX_ID = 255


def inline_fields(kind: Kind) -> dict[str, Kind]:
    """Fields of this kind that list child objects in place (Service.service_entries, SecurityPolicy.rules)."""
    return {fld: child for (parent, fld), child in INLINE.items() if parent == kind.name}


def patch_infra(tx: Transaction, body) -> None:
    """PATCH /infra: the Infra object and its Child* wrappers, recursively."""
    if not isinstance(body, dict):
        raise errors.invalid(f"/infra: expected an object (Infra), got {schema.json_type(body)}.")
    if body.get("resource_type") != "Infra":
        raise errors.invalid(f"/infra: resource_type must be 'Infra', got {body.get('resource_type')!r}.")
    if body.get("domains"):
        raise errors.NsxError(400, errors.UNSUPPORTED, "Infra.domains is not supported by this stand-in: use children.")
    schema.validate(body, "Infra", "/infra", skip=("children",))
    apply_children(tx, "/infra", "Infra", body.get("children"))


def apply_children(tx: Transaction, parent: str, parent_kind: str, children) -> None:
    """Each wrapper of a `children` list, in order."""
    if children is None:
        return
    if not isinstance(children, list):
        raise errors.invalid(f"{parent}, field children: expected array, got {schema.json_type(children)}.")
    for i, wrapper in enumerate(children):
        where = f"{parent}, field children[{i}]"
        if not isinstance(wrapper, dict):
            raise errors.invalid(f"{where}: expected an object, got {schema.json_type(wrapper)}.")
        wrapper_type = wrapper.get("resource_type")
        if not isinstance(wrapper_type, str) or not schema.is_kind_of(wrapper_type, "ChildPolicyConfigResource"):
            raise errors.invalid(f"{where}: resource_type {wrapper_type!r} is not a Child* wrapper type.")
        if wrapper_type == "ChildResourceReference":
            _reference(tx, parent, parent_kind, wrapper, where)
        else:
            _wrapped(tx, parent, parent_kind, wrapper, where)


def _wrapped(tx: Transaction, parent: str, parent_kind: str, wrapper: dict, where: str) -> None:
    """One Child<Kind> wrapper: create, update or (marked_for_delete) delete its object."""
    wrapper_type = wrapper["resource_type"]
    kind = WRAPPERS.get(wrapper_type)
    if kind is None or kind.parent != parent_kind:
        raise errors.NsxError(
            400, errors.UNSUPPORTED, f"{where}: {wrapper_type} under {parent_kind} is not supported by this stand-in."
        )
    obj = wrapper.get(kind.payload)
    if not isinstance(obj, dict):
        raise errors.invalid(f"{where}: {wrapper_type} needs its {kind.payload} object.")
    path = child_path(parent, kind, check_id(obj.get("id"), where))
    schema.validate(wrapper, wrapper_type, f"{path} ({wrapper_type})", skip=(kind.payload,))
    if wrapper.get("marked_for_delete") or obj.get("marked_for_delete"):
        type_name = _type_name(kind, obj, path)
        schema.validate(obj, type_name, path)
        tx.delete(path, obj)
    else:
        put_object(tx, path, kind, obj, replace=False)


def _reference(tx: Transaction, parent: str, parent_kind: str, wrapper: dict, where: str) -> None:
    """ChildResourceReference: an existing object named only to reach its children."""
    target = wrapper.get("target_type")
    kind = KINDS.get(target) if isinstance(target, str) else None
    if kind is None or kind.parent != parent_kind:
        raise errors.NsxError(
            400,
            errors.UNSUPPORTED,
            f"{where}: ChildResourceReference to {target!r} under {parent_kind} is not supported here.",
        )
    path = child_path(parent, kind, check_id(wrapper.get("id"), where))
    schema.validate(wrapper, "ChildResourceReference", f"{path} (ChildResourceReference)", skip=("children",))
    if wrapper.get("marked_for_delete"):
        raise errors.invalid(f"{path}: a ChildResourceReference cannot delete; use Child{target}.")
    if path not in tx.objects:
        raise errors.invalid(f"{where}: ChildResourceReference to {path}, which does not exist.")
    apply_children(tx, path, kind.name, wrapper.get("children"))


def put_object(tx: Transaction, path: str, kind: Kind, obj, replace: bool) -> dict:
    """Validate one object (its in-place lists and children too) and store it with PATCH or PUT semantics."""
    if not isinstance(obj, dict):
        raise errors.invalid(f"{path}: expected an object ({kind.name}), got {schema.json_type(obj)}.")
    if not kind.wrapper:
        raise errors.NsxError(400, errors.UNSUPPORTED, f"{path}: {kind.name} objects are read-only in this stand-in.")
    type_name = _type_name(kind, obj, path)
    lists = inline_fields(kind)
    schema.validate(obj, type_name, path, skip=("children", *lists))
    if "id" in obj and obj["id"] != path.rsplit("/", 1)[1]:
        raise errors.invalid(f"{path}: id {obj['id']!r} does not match the path.")
    old = tx.objects.get(path)
    if old is not None and old["resource_type"] != type_name:
        raise errors.invalid(f"{path}: resource_type cannot change from {old['resource_type']} to {type_name}.")
    if kind.name == "Group":
        for fld in ("expression", "extended_expression"):
            check_expressions(obj.get(fld), f"{path}, field {fld}")
    own = {k: v for k, v in obj.items() if k != "children" and k not in lists}
    stored = tx.upsert(path, kind, {**own, "resource_type": type_name}, replace)
    for fld, child_kind in lists.items():
        _inline(tx, path, fld, child_kind, obj.get(fld), replace)
    apply_children(tx, path, kind.name, obj.get("children"))
    return stored


def _inline(tx: Transaction, parent: str, fld: str, kind: Kind, items, replace: bool) -> None:
    """Objects listed in place (a Service's service_entries): upserted; with PUT, the others removed."""
    if items is None:
        return
    if not isinstance(items, list):
        raise errors.invalid(f"{parent}, field {fld}: expected array, got {schema.json_type(items)}.")
    keep = set()
    for i, item in enumerate(items):
        where = f"{parent}, field {fld}[{i}]"
        ident = check_id(item.get("id") if isinstance(item, dict) else None, where)
        path = child_path(parent, kind, ident)
        keep.add(path)
        put_object(tx, path, kind, item, replace=False)
    if replace:
        prefix = f"{parent}/{kind.collection}/"
        for path in [p for p in tx.objects if p.startswith(prefix) and p not in keep]:
            tx.delete(path)


def _type_name(kind: Kind, obj: dict, path: str) -> str:
    """The SDK type of an object: its resource_type, which must be the kind (or a subtype, where polymorphic)."""
    given = obj.get("resource_type")
    if given is None and not kind.polymorphic:
        return kind.name
    if not isinstance(given, str):
        raise errors.invalid(f"{path}: resource_type is required (a kind of {kind.name}).")
    schema.model(given)
    if given != kind.name and not (kind.polymorphic and schema.is_kind_of(given, kind.name)):
        raise errors.invalid(f"{path}: resource_type {given!r} does not match {kind.name}.")
    return given


def check_expressions(expressions, where: str) -> None:
    """Terms and ConjunctionOperators alternate, a term first and last (nested lists too), as NSX requires."""
    for i, expr in enumerate(expressions or []):
        conjunction = expr.get("resource_type") == "ConjunctionOperator"
        if conjunction != (i % 2 == 1):
            wanted = "a ConjunctionOperator" if i % 2 else "an expression, not a ConjunctionOperator"
            raise errors.invalid(f"{where}[{i}]: expected {wanted} (terms and conjunctions alternate).")
        if expr.get("resource_type") == "NestedExpression":
            check_expressions(expr.get("expressions"), f"{where}[{i}].expressions")
    if expressions and len(expressions) % 2 == 0:
        raise errors.invalid(f"{where}: ends with a ConjunctionOperator.")


def check_id(ident, where: str) -> str:
    """A usable object id: a non-empty string without '/', at most 255 characters."""
    if not isinstance(ident, str) or not ident or "/" in ident or len(ident) > MAX_ID:
        raise errors.invalid(f"{where}: id {ident!r} is not a valid object id.")
    return ident


def compose(store: Store, path: str, index: dict[str, list[str]] | None = None) -> dict:
    """An object as GET answers it: stored fields plus the child objects its kind lists in place."""
    body = dict(store.objects[path])
    kind = kind_of(path)
    for fld, child_kind in inline_fields(kind).items():
        if index is None:
            body[fld] = store.children(path, child_kind)
        else:
            prefix = f"{path}/{child_kind.collection}/"
            body[fld] = [store.objects[p] for p in index.get(path, []) if p.startswith(prefix)]
    if kind.name == "SecurityPolicy":
        body["rule_count"] = len(body["rules"])
    return body
