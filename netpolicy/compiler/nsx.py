"""Export a Site as the NSX Policy API hierarchical body for `PATCH /policy/api/v1/infra`."""

from __future__ import annotations

import json
import re

from .model import Action, Category, Direction, Group, Policy, Protocol, Rule, Scope, Service, Site

ANY = "ANY"
DOMAIN_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")  # what a domain id given to the export may be
SERVICE_PREFIX = "enclave-"
NSX_ACTION = {Action.ALLOW: "ALLOW", Action.DROP: "DROP", Action.REJECT: "REJECT"}
NSX_DIRECTION = {Direction.IN: "IN", Direction.OUT: "OUT", Direction.IN_OUT: "IN_OUT"}
NSX_CATEGORY = {c: c.value.capitalize() for c in Category}
NSX_L4 = {Protocol.TCP: "TCP", Protocol.UDP: "UDP"}


def group_id(group: Group) -> str:
    """NSX id of a group; names cannot contain '-', so the separator is unambiguous."""
    if group.scope is Scope.TENANT:
        return f"tenant-{group.tenant}-{group.name}"
    return f"site-{group.name}"


def group_path(group: Group, domain: str) -> str:
    """Policy path of a group inside the domain."""
    return f"/infra/domains/{domain}/groups/{group_id(group)}"


def service_path(service: Service) -> str:
    """Policy path of one of our services (kept apart from NSX's predefined ones)."""
    return f"/infra/services/{SERVICE_PREFIX}{service.name}"


def service_entries(service: Service) -> list[dict]:
    """Service entries: an L4 port set for tcp/udp, ICMP type entries for icmp."""
    # A tcp/udp service without ports means every port: NSX wants that as an empty list.
    if service.protocol is Protocol.ICMP:
        return [
            {
                "resource_type": "ICMPTypeServiceEntry",
                "id": f"icmp{v}",
                "display_name": f"ICMPv{v}",
                "protocol": f"ICMPv{v}",
            }
            for v in (4, 6)
        ]
    return [
        {
            "resource_type": "L4PortSetServiceEntry",
            "id": service.protocol.value,
            "display_name": service.protocol.value,
            "l4_protocol": NSX_L4[service.protocol],
            "destination_ports": [str(p) for p in service.ports],
        }
    ]


def child_service(service: Service) -> dict:
    """ChildService wrapper for one service."""
    body = {
        "resource_type": "Service",
        "id": f"{SERVICE_PREFIX}{service.name}",
        "display_name": service.name,
        "service_entries": service_entries(service),
    }
    return {"resource_type": "ChildService", "Service": body}


def child_group(group: Group) -> dict:
    """ChildGroup wrapper with one IP address expression."""
    expression = []
    if group.cidrs:
        expression = [
            {"resource_type": "IPAddressExpression", "id": "addresses", "ip_addresses": [str(n) for n in group.cidrs]}
        ]
    tags = [{"scope": "enclave/role", "tag": t} for t in group.tags]
    if group.tenant:
        tags.append({"scope": "enclave/tenant", "tag": group.tenant})
    body = {
        "resource_type": "Group",
        "id": group_id(group),
        "display_name": group.key,
        "expression": expression,
        "tags": tags,
    }
    return {"resource_type": "ChildGroup", "Group": body}


def _paths(groups: tuple[Group, ...], domain: str) -> list[str]:
    return sorted(group_path(g, domain) for g in groups) or [ANY]


def _service_paths(services: tuple[Service, ...]) -> list[str]:
    # An any-protocol service makes the whole list ANY; NSX has no entry type for it.
    if not services or any(s.protocol is Protocol.ANY for s in services):
        return [ANY]
    return sorted(service_path(s) for s in services)


def child_rule(rule: Rule, domain: str) -> dict:
    """ChildRule wrapper; ANY stands for an empty source, destination or service list."""
    body = {
        "resource_type": "Rule",
        "id": rule.id,
        "display_name": rule.id,
        "sequence_number": rule.sequence,
        "source_groups": _paths(rule.sources, domain),
        "destination_groups": _paths(rule.destinations, domain),
        "services": _service_paths(rule.services),
        "scope": [ANY],
        "action": NSX_ACTION[rule.action],
        "direction": NSX_DIRECTION[rule.direction],
        "ip_protocol": "IPV4_IPV6",
        "logged": rule.logged,
        "disabled": not rule.enabled,
    }
    return {"resource_type": "ChildRule", "Rule": body}


def child_security_policy(policy: Policy, domain: str) -> dict:
    """ChildSecurityPolicy wrapper with its rules as ChildRule children."""
    body = {
        "resource_type": "SecurityPolicy",
        "id": policy.id,
        "display_name": policy.id,
        "category": NSX_CATEGORY[policy.category],
        "sequence_number": policy.sequence,
        "scope": [ANY],
        "stateful": True,
        "children": [child_rule(r, domain) for r in policy.rules],
    }
    if policy.tenant:
        body["tags"] = [{"scope": "enclave/tenant", "tag": policy.tenant}]
    return {"resource_type": "ChildSecurityPolicy", "SecurityPolicy": body}


def _all_groups(site: Site) -> list[Group]:
    groups = {group_id(g): g for g in site.groups}
    for _, rule in site.all_rules():
        for g in rule.sources + rule.destinations:
            groups[group_id(g)] = g
    return [groups[k] for k in sorted(groups)]


def export_infra(site: Site, domain: str = "default") -> dict:
    """The hierarchical Infra body: services, then one domain with groups and policies."""
    policies = sorted(site.policies + tuple(p for t in site.tenants for p in t.policies), key=lambda p: p.order)
    domain_children = [child_group(g) for g in _all_groups(site)]
    domain_children += [child_security_policy(p, domain) for p in policies]
    child_domain = {
        "resource_type": "ChildDomain",
        "Domain": {"resource_type": "Domain", "id": domain, "display_name": domain, "children": domain_children},
    }
    children = [child_service(s) for s in site.services if s.protocol is not Protocol.ANY]
    children.append(child_domain)
    return {"resource_type": "Infra", "children": children}


def export_infra_json(site: Site, domain: str = "default") -> str:
    """Deterministic JSON text of export_infra (sorted keys, stable ordering)."""
    return json.dumps(export_infra(site, domain), sort_keys=True, indent=2) + "\n"
