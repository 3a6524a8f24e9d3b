"""The object kinds the stand-in models: where they live, how they nest, what they reference."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

ANY = "ANY"


@dataclass(frozen=True)
class Ref:
    """A field holding policy paths (one, or a list) that must point at existing objects."""

    field: str
    targets: tuple[str, ...] = ()  # kinds allowed; empty: any existing object
    many: bool = False
    any_ok: bool = False  # the literal "ANY"
    ip_ok: bool = False  # IP addresses, ranges and CIDRs (rules' sources and destinations)


@dataclass(frozen=True)
class Kind:
    """One kind of stored object."""

    name: str  # the SDK type (for service entries: the base; the object names its subtype)
    collection: str  # its path segment: /infra/<collection>/<id>
    parent: str  # the kind it lives under
    wrapper: str = ""  # its Child* type in hierarchical bodies ("" : not creatable)
    refs: tuple[Ref, ...] = ()
    inline: str = ""  # the field of the parent that may list these objects in place
    polymorphic: bool = False

    @property
    def payload(self) -> str:
        """The key of the object inside its wrapper (ChildSegment's "Segment")."""
        return self.wrapper.removeprefix("Child")


GROUPS = ("Group",)
RULE_PATHS = dict(many=True, any_ok=True)
KINDS = {
    k.name: k
    for k in (
        Kind("Site", "sites", "Infra"),
        Kind("EnforcementPoint", "enforcement-points", "Site"),
        Kind("PolicyTransportZone", "transport-zones", "EnforcementPoint"),
        Kind("PolicyEdgeCluster", "edge-clusters", "EnforcementPoint"),
        Kind("Tier0", "tier-0s", "Infra"),
        Kind("Domain", "domains", "Infra", "ChildDomain"),
        Kind("Tier1", "tier-1s", "Infra", "ChildTier1", (Ref("tier0_path", ("Tier0",)),)),
        Kind(
            "LocaleServices",
            "locale-services",
            "Tier1",
            "ChildLocaleServices",
            (Ref("edge_cluster_path", ("PolicyEdgeCluster",)),),
        ),
        Kind(
            "Segment",
            "segments",
            "Infra",
            "ChildSegment",
            (Ref("connectivity_path", ("Tier1", "Tier0")), Ref("transport_zone_path", ("PolicyTransportZone",))),
        ),
        Kind("Service", "services", "Infra", "ChildService"),
        Kind(
            "ServiceEntry",
            "service-entries",
            "Service",
            "ChildServiceEntry",
            inline="service_entries",
            polymorphic=True,
        ),
        Kind("Group", "groups", "Domain", "ChildGroup"),
        Kind("SecurityPolicy", "security-policies", "Domain", "ChildSecurityPolicy", (Ref("scope", **RULE_PATHS),)),
        Kind(
            "Rule",
            "rules",
            "SecurityPolicy",
            "ChildRule",
            (
                Ref("source_groups", GROUPS, ip_ok=True, **RULE_PATHS),
                Ref("destination_groups", GROUPS, ip_ok=True, **RULE_PATHS),
                Ref("services", ("Service",), **RULE_PATHS),
                Ref("scope", **RULE_PATHS),
            ),
            inline="rules",
        ),
    )
}
WRAPPERS = {k.wrapper: k for k in KINDS.values() if k.wrapper}
BY_COLLECTION = {(k.parent, k.collection): k for k in KINDS.values()}
INLINE = {(k.parent, k.inline): k for k in KINDS.values() if k.inline}


def kind_of(path: str) -> Kind | None:
    """The kind of the object at a policy path (None: not a path of a modelled object)."""
    parts = path.strip("/").split("/")
    if len(parts) < 3 or len(parts) % 2 == 0 or parts[0] != "infra" or not all(parts):
        return None
    parent, kind = "Infra", None
    for collection in parts[1::2]:
        kind = BY_COLLECTION.get((parent, collection))
        if kind is None:
            return None
        parent = kind.name
    return kind


def collection_of(path: str) -> tuple[str, Kind] | None:
    """(parent path, kind) when `path` names a collection (/infra/segments), else None."""
    parent, _, collection = path.rstrip("/").rpartition("/")
    parent_kind = "Infra" if parent == "/infra" else getattr(kind_of(parent), "name", None)
    kind = BY_COLLECTION.get((parent_kind, collection))
    return (parent, kind) if kind else None


def child_path(parent: str, kind: Kind, ident: str) -> str:
    """The path of an object of `kind` with id `ident` under `parent`."""
    return f"{parent}/{kind.collection}/{ident}"


def parent_of(path: str) -> str:
    """The parent path (/infra for top-level objects)."""
    return path.rsplit("/", 2)[0]


def is_ip(text: str) -> bool:
    """An IPv4/IPv6 address, CIDR or range (a-b), as rules accept in place of groups."""
    for part in text.split("-", 1):
        try:
            ipaddress.ip_network(part.strip(), strict=False)
        except ValueError:
            return False
    return True


def expression_paths(expressions: list | None) -> list[str]:
    """Every path a group's expressions name (PathExpression, nested ones included)."""
    found = []
    for expr in expressions or []:
        if expr.get("resource_type") == "PathExpression":
            found += expr.get("paths") or []
        elif expr.get("resource_type") == "NestedExpression":
            found += expression_paths(expr.get("expressions"))
    return found


def references(kind: Kind, body: dict) -> list[tuple[str, str, Ref]]:
    """(field, path, ref) for every path-like value of the object's reference fields."""
    found = []
    for ref in kind.refs:
        value = body.get(ref.field)
        for item in (value or []) if ref.many else ([value] if value else []):
            found.append((ref.field, item, ref))
    if kind.name == "Group":
        expressions = (body.get("expression") or []) + (body.get("extended_expression") or [])
        found += [("expression", p, Ref("expression")) for p in expression_paths(expressions)]
    return found
