"""Group membership of VMs, computed from a group's expressions and the tags stored here."""

from __future__ import annotations

import ipaddress

from .store import Store
from .vcenter import VM

MAX_DEPTH = 8


def members(store: Store, group_path: str, vms: list[VM], depth: int = 0) -> list[VM]:
    """The VMs a group's expression selects (nested groups followed to a fixed depth)."""
    group = store.objects.get(group_path)
    if group is None or depth > MAX_DEPTH:
        return []
    return [vm for vm in vms if _matches(store, group.get("expression") or [], vm, vms, depth)]


def _matches(store: Store, expressions: list, vm: VM, vms: list[VM], depth: int) -> bool:
    """A list of terms joined by ConjunctionOperators: AND binds tighter than OR."""
    if not expressions:
        return False
    any_clause, clause = False, True
    for i, expr in enumerate(expressions):
        if i % 2 == 1:
            if expr.get("conjunction_operator") == "OR":
                any_clause, clause = any_clause or clause, True
            continue
        clause = clause and _term(store, expr, vm, vms, depth)
    return any_clause or clause


def _term(store: Store, expr: dict, vm: VM, vms: list[VM], depth: int) -> bool:
    """One expression about one VM."""
    kind = expr.get("resource_type")
    if kind == "Condition":
        return _condition(store, expr, vm)
    if kind == "NestedExpression":
        return _matches(store, expr.get("expressions") or [], vm, vms, depth)
    if kind == "IPAddressExpression":
        return any(_ip_in(ip, expr.get("ip_addresses") or []) for ip in vm.ips)
    if kind == "ExternalIDExpression":
        return expr.get("member_type") == "VirtualMachine" and vm.external_id in (expr.get("external_ids") or [])
    if kind == "PathExpression":
        return any(_in_path(store, path, vm, vms, depth) for path in expr.get("paths") or [])
    return False


def _condition(store: Store, cond: dict, vm: VM) -> bool:
    """A VirtualMachine condition on a tag ("scope|tag") or the name."""
    if cond.get("member_type") != "VirtualMachine":
        return False
    value, operator = cond.get("value") or "", cond.get("operator", "EQUALS")
    if cond.get("key") == "Name":
        return _compare(vm.name, operator, value)
    if cond.get("key") != "Tag":
        return False
    scope, _, tag = value.rpartition("|") if "|" in value else (None, "", value)
    for item in store.tags.get(vm.external_id, []):
        scope_ok = scope is None or item.get("scope", "") == scope
        if scope_ok and _compare(item.get("tag", ""), operator, tag):
            return True
    return False


def _compare(actual: str, operator: str, wanted: str) -> bool:
    """Condition operators on strings."""
    checks = {
        "EQUALS": actual == wanted,
        "NOTEQUALS": actual != wanted,
        "CONTAINS": wanted in actual,
        "STARTSWITH": actual.startswith(wanted),
        "ENDSWITH": actual.endswith(wanted),
    }
    return checks.get(operator, False)


def _ip_in(ip: str, entries: list[str]) -> bool:
    """An address inside any of the addresses, CIDRs or ranges given."""
    try:
        address = ipaddress.ip_address(ip)
    except ValueError:
        return False
    for entry in entries:
        low, _, high = entry.partition("-")
        try:
            if high and ipaddress.ip_address(low.strip()) <= address <= ipaddress.ip_address(high.strip()):
                return True
            if not high and address in ipaddress.ip_network(low.strip(), strict=False):
                return True
        except (ValueError, TypeError):
            continue
    return False


def _in_path(store: Store, path: str, vm: VM, vms: list[VM], depth: int) -> bool:
    """A member of a nested group, or attached to a segment's port group."""
    if "/groups/" in path:
        return vm in members(store, path, vms, depth + 1)
    entry = store.realized.get(path)
    return "/segments/" in path and entry is not None and entry.uuid in vm.networks
