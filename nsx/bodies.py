"""Turn desired objects and deletions into NSX requests: one hierarchical PATCH, or one call per object."""

from __future__ import annotations

from nsx.choices import ObjectKind
from nsx.compiler import KIND_ORDER, Desired

WRAPPER = {ObjectKind.TIER1: "Tier1", ObjectKind.SEGMENT: "Segment", ObjectKind.SERVICE: "Service",
           ObjectKind.GROUP: "Group", ObjectKind.POLICY: "SecurityPolicy", ObjectKind.RULE: "Rule"}  # fmt: skip
INFRA_KINDS = (ObjectKind.TIER1, ObjectKind.SEGMENT, ObjectKind.SERVICE)


def kind_of(path: str) -> str:
    """The kind of one of Enclave's paths (deletions know only their path)."""
    parts = path.split("/")
    if "rules" in parts:
        return ObjectKind.RULE
    for marker, kind in (("tier-1s", ObjectKind.TIER1), ("segments", ObjectKind.SEGMENT),
                         ("services", ObjectKind.SERVICE), ("groups", ObjectKind.GROUP)):  # fmt: skip
        if marker in parts:
            return kind
    return ObjectKind.POLICY


def _child(kind: str, body: dict, delete: bool = False) -> dict:
    name = WRAPPER[kind]
    inner = dict(body, marked_for_delete=True) if delete else body
    wrapper = {"resource_type": f"Child{name}", name: inner}
    if delete:
        wrapper["marked_for_delete"] = True
    return wrapper


def _stub(path: str) -> dict:
    """The least body NSX needs to delete an object: its kind and id."""
    return {"resource_type": WRAPPER[kind_of(path)], "id": path.rsplit("/", 1)[1]}


def hierarchical(desired: dict[str, Desired], deletes: set[str], domain: str, revisions: dict | None = None) -> dict:
    """One `PATCH /policy/api/v1/infra` body: objects under Infra, groups and policies under the domain.

    `revisions` (path -> _revision) makes each update a compare-and-set: NSX answers 412 when someone
    changed the object since it was read.
    """
    revisions = revisions or {}
    body = lambda d: dict(d.body, _revision=revisions[d.path]) if d.path in revisions else d.body  # noqa: E731
    infra, domain_children, policies = [], [], {}
    for path in sorted(desired, key=_order):
        item = desired[path]
        if item.kind == ObjectKind.RULE:
            continue
        child = _child(item.kind, body(item))
        if item.kind == ObjectKind.POLICY:
            policies[path] = child["SecurityPolicy"] = dict(child["SecurityPolicy"], children=[])
        (infra if item.kind in INFRA_KINDS else domain_children).append(child)
    for path in sorted(deletes, key=_order, reverse=True):
        kind = kind_of(path)
        if kind == ObjectKind.RULE:
            parent = path.rsplit("/rules/", 1)[0]
            if parent in policies:  # a deleted policy takes its rules with it
                policies[parent]["children"].append(_child(kind, _stub(path), delete=True))
            continue
        (infra if kind in INFRA_KINDS else domain_children).append(_child(kind, _stub(path), delete=True))
    for path in sorted(p for p in desired if desired[p].kind == ObjectKind.RULE):
        policies[path.rsplit("/rules/", 1)[0]]["children"].append(_child(ObjectKind.RULE, body(desired[path])))
    if domain_children:
        infra.append({"resource_type": "ChildResourceReference", "id": domain, "target_type": "Domain",
                      "children": domain_children})  # fmt: skip
    return {"resource_type": "Infra", "children": infra}


def _order(path: str) -> tuple[int, str]:
    return KIND_ORDER.index(kind_of(path)), path


def flat_calls(desired: dict[str, Desired], deletes: set[str]) -> list[tuple[str, str, dict | None]]:
    """The same change as one call per object: creates in dependency order, then deletes in reverse."""
    calls = [("PATCH", path, desired[path].body) for path in sorted(desired, key=_order)]
    calls += [("DELETE", path, None) for path in sorted(deletes, key=_order, reverse=True)]
    return calls
