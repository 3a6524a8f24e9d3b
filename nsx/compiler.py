"""Compile the policy IR and a tenant's segments into NSX Policy objects, and those into request bodies.

The same IR feeds the nft and VDS compilers. Here roles are matched by VM tag instead of by address
(`build_site(role_addresses=False)`), every id starts with `enclave-` (Enclave owns only those), ids are
stable (derived from primary keys) and every policy and rule carries its explicit sequence number.
"""

from __future__ import annotations

import hashlib
import ipaddress
import json
from dataclasses import dataclass

from netpolicy.compiler import model as ir
from netpolicy.compiler.nsx import NSX_ACTION, NSX_CATEGORY, NSX_DIRECTION, service_entries
from nsx.choices import ObjectKind

PREFIX = "enclave-"
ANY = "ANY"
MANAGED = ("enclave/managed", "enclave")  # every VM Enclave tags; the site policies' scope
TENANT_SCOPE, CLUSTER_SCOPE, ROLE_SCOPE = "enclave/tenant", "enclave/cluster", "enclave/role"
SITE_VMS = f"{PREFIX}site-all-vms"  # IR names hold no "-": no group of the site can be named so
# Order of creation; deletes go the other way (rules before their groups, segments before their tier-1).
KIND_ORDER = [
    ObjectKind.TIER1,
    ObjectKind.SEGMENT,
    ObjectKind.SERVICE,
    ObjectKind.GROUP,
    ObjectKind.POLICY,
    ObjectKind.RULE,
]


@dataclass(frozen=True)
class SegmentSpec:
    """A tenant's overlay segment as NSX gets it: its port group name in vCenter is display_name."""

    pk: int
    display_name: str
    subnet: str
    gateway: str


@dataclass(frozen=True)
class Target:
    """Where a manager puts things: its domain, overlay transport zone and tier-0 ("" for none)."""

    domain: str
    transport_zone_path: str
    tier0_path: str = ""


@dataclass(frozen=True)
class Desired:
    """One object Enclave wants in NSX: its path, kind and own fields (a policy's rules are separate)."""

    path: str
    kind: str
    body: dict
    segment: int | None = None


def tier1_path(tenant: str) -> str:
    return f"/infra/tier-1s/{PREFIX}{tenant}"


def segment_path(tenant: str, pk: int) -> str:
    return f"/infra/segments/{PREFIX}{tenant}-s{pk}"


def group_path(domain: str, nsx_id: str) -> str:
    return f"/infra/domains/{domain}/groups/{nsx_id}"


def owner(tenant: str | None) -> str:
    """Every id of a tenant's objects starts with enclave-<tenant>-, the site's with enclave-site-."""
    return f"{PREFIX}{tenant or 'site'}-"


def group_id(group: ir.Group) -> str:
    return owner(group.tenant) + group.name


def policy_path(domain: str, policy: ir.Policy) -> str:
    return f"/infra/domains/{domain}/security-policies/{owner(policy.tenant)}{policy.id}"


def service_path(service: ir.Service) -> str:
    return f"/infra/services/{owner(None)}{service.name}"


def cluster_tag(tenant: str, cluster_pk: int) -> str:
    """The enclave/cluster tag of a cluster's VMs, and what its group matches."""
    return f"{tenant}-c{cluster_pk}"


def vm_tags(tenant: str, cluster: str, role: str) -> list[dict]:
    """The tags a cluster's VM carries: what its tenant's groups and the site's policies match."""
    pairs = [MANAGED, (TENANT_SCOPE, tenant), (CLUSTER_SCOPE, cluster), (ROLE_SCOPE, role)]
    return [{"scope": scope, "tag": tag} for scope, tag in pairs]


def _tag(scope: str, tag: str) -> list[dict]:
    return [{"scope": scope, "tag": tag}]


def _condition(nsx_id: str, scope: str, tag: str) -> dict:
    return {"resource_type": "Condition", "id": nsx_id, "member_type": "VirtualMachine", "key": "Tag",
            "operator": "EQUALS", "value": f"{scope}|{tag}"}  # fmt: skip


def _conjunction(nsx_id: str, operator: str) -> dict:
    return {"resource_type": "ConjunctionOperator", "id": nsx_id, "conjunction_operator": operator}


def expression(group: ir.Group) -> list[dict]:
    """Role groups match the tenant's VMs by tag; written-down addresses by IP; both joined by OR."""
    tags = []
    if group.tags and group.tenant:
        tags = [_condition("tenant", TENANT_SCOPE, group.tenant), _conjunction("and", "AND"),
                _condition("role", ROLE_SCOPE, group.tags[0])]  # fmt: skip
    ips = [{"resource_type": "IPAddressExpression", "id": "addresses",
            "ip_addresses": [str(n) for n in group.cidrs]}] if group.cidrs else []  # fmt: skip
    if tags and ips:
        return [{"resource_type": "NestedExpression", "id": "tagged", "expressions": tags},
                _conjunction("or", "OR"), *ips]  # fmt: skip
    return tags or ips


def _group(domain: str, nsx_id: str, display: str, expr: list[dict], tags: list[dict]) -> Desired:
    body = {"resource_type": "Group", "id": nsx_id, "display_name": display, "expression": expr, "tags": tags}
    return Desired(group_path(domain, nsx_id), ObjectKind.GROUP, body)


def _group_paths(groups: tuple[ir.Group, ...], domain: str) -> list[str]:
    return sorted(group_path(domain, group_id(g)) for g in groups) or [ANY]


def _service_paths(services: tuple[ir.Service, ...]) -> list[str]:
    if not services or any(s.protocol is ir.Protocol.ANY for s in services):
        return [ANY]
    return sorted(service_path(s) for s in services)


def _rule(rule: ir.Rule, policy: str, domain: str, scope: list[str]) -> Desired:
    body = {
        "resource_type": "Rule", "id": PREFIX + rule.id, "display_name": rule.id,
        "sequence_number": rule.sequence, "source_groups": _group_paths(rule.sources, domain),
        "destination_groups": _group_paths(rule.destinations, domain), "services": _service_paths(rule.services),
        "scope": scope, "action": NSX_ACTION[rule.action], "direction": NSX_DIRECTION[rule.direction],
        "ip_protocol": "IPV4_IPV6", "logged": rule.logged, "disabled": not rule.enabled,
    }  # fmt: skip
    return Desired(f"{policy}/rules/{PREFIX}{rule.id}", ObjectKind.RULE, body)


def _policy(policy: ir.Policy, domain: str, scope_group: str, tags: list[dict]) -> list[Desired]:
    path, scope = policy_path(domain, policy), [group_path(domain, scope_group)]
    body = {"resource_type": "SecurityPolicy", "id": path.rsplit("/", 1)[1], "display_name": policy.id,
            "category": NSX_CATEGORY[policy.category], "sequence_number": policy.sequence, "scope": scope,
            "stateful": True, "tags": tags}  # fmt: skip
    return [Desired(path, ObjectKind.POLICY, body), *(_rule(r, path, domain, scope) for r in policy.rules)]


def site_part(site: ir.Site, target: Target) -> dict[str, Desired]:
    """Services, site groups, the group of every VM Enclave manages, and the site's policies."""
    tags, domain, found = _tag("enclave/site", "site"), target.domain, []
    for service in site.services:
        if service.protocol is not ir.Protocol.ANY:
            body = {"resource_type": "Service", "id": owner(None) + service.name, "display_name": service.name,
                    "service_entries": service_entries(service), "tags": tags}  # fmt: skip
            found.append(Desired(service_path(service), ObjectKind.SERVICE, body))
    for group in site.groups:
        if group.scope is ir.Scope.SITE:
            found.append(_group(domain, group_id(group), group.key, expression(group), tags))
    found.append(_group(domain, SITE_VMS, "Enclave VMs", [_condition("managed", *MANAGED)], tags))
    for policy in site.policies:
        found += _policy(policy, domain, SITE_VMS, tags)
    return {d.path: d for d in found}


def tenant_part(tenant: ir.Tenant, segments: list[SegmentSpec], target: Target, clusters=()) -> dict[str, Desired]:
    """The tenant's tier-1, overlay segments, groups (by tag: its VMs, each cluster's, its rules' roles) and
    policies scoped to its VMs; `clusters` are the primary keys of its live clusters on the site."""
    name, domain, tags = tenant.name, target.domain, _tag(TENANT_SCOPE, tenant.name)
    t1 = {"resource_type": "Tier1", "id": f"{PREFIX}{name}", "display_name": f"{PREFIX}{name}",
          "route_advertisement_types": ["TIER1_CONNECTED"], "tags": tags}  # fmt: skip
    if target.tier0_path:
        t1["tier0_path"] = target.tier0_path
    found = [Desired(tier1_path(name), ObjectKind.TIER1, t1)]
    for seg in segments:
        found.append(Desired(segment_path(name, seg.pk), ObjectKind.SEGMENT, _segment(name, seg, target, tags), seg.pk))
    vms = f"{owner(name)}all-vms"
    found.append(_group(domain, vms, f"{name} VMs", [_condition("tenant", TENANT_SCOPE, name)], tags))
    for pk in clusters:  # "-cluster-" holds a hyphen, which no group name of the tenant's may
        expr = [_condition("tenant", TENANT_SCOPE, name), _conjunction("and", "AND"),
                _condition("cluster", CLUSTER_SCOPE, cluster_tag(name, pk))]  # fmt: skip
        found.append(_group(domain, f"{owner(name)}cluster-{pk}", f"{name} cluster {pk}", expr, tags))
    for group in tenant.groups.values():
        found.append(_group(domain, group_id(group), group.key, expression(group), tags))
    for policy in tenant.policies:
        found += _policy(policy, domain, vms, tags)
    return {d.path: d for d in found}


def _segment(tenant: str, seg: SegmentSpec, target: Target, tags: list[dict]) -> dict:
    prefix = ipaddress.ip_network(seg.subnet).prefixlen
    return {"resource_type": "Segment", "id": f"{PREFIX}{tenant}-s{seg.pk}", "display_name": seg.display_name,
            "connectivity_path": tier1_path(tenant), "transport_zone_path": target.transport_zone_path,
            "subnets": [{"gateway_address": f"{seg.gateway}/{prefix}"}], "admin_state": "UP", "tags": tags}  # fmt: skip


def digest(desired: dict[str, Desired], deletes: set[str]) -> str:
    """What a part's request would change, as one hash: equal digests mean nothing to send."""
    text = json.dumps([[d.path, d.body] for d in sorted(desired.values(), key=lambda d: d.path)] + sorted(deletes),
                      sort_keys=True)  # fmt: skip
    return hashlib.sha256(text.encode()).hexdigest()
