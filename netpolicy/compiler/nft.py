"""Compile a Site to an nftables ruleset: one owned table, per-tenant chains, named sets."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

from .model import (
    Action,
    Direction,
    Group,
    Policy,
    PortRange,
    Protocol,
    Rule,
    Scope,
    Service,
    Site,
    Tenant,
)

TABLE = "inet enclave"
INGRESS_MAP = "ingress_if"
EGRESS_MAP = "egress_if"
# (direction, base chain, hook, interface selector, dispatch map)
HOOKS = (("in", "input", "input", "iifname", INGRESS_MAP),
         ("out", "output", "output", "oifname", EGRESS_MAP))
FAMILIES = ((4, "ip", "ipv4_addr"), (6, "ip6", "ipv6_addr"))
VERDICT = {Action.ALLOW: "accept", Action.DROP: "drop",
           Action.REJECT: "reject with icmpx admin-prohibited"}


def group_set(group: Group, family: int) -> str:
    """Named set of a group: tenant groups share one set per group name, keyed by interface."""
    if group.scope is Scope.TENANT:
        return f"g__{group.name}__{family}"
    return f"s__{group.name}__{family}"


def service_set(service: Service) -> str:
    """Named set holding one service's destination ports."""
    return f"svc__{service.name}"


def tenant_chain(tenant: str, direction: str) -> str:
    """Chain holding one tenant's rules for traffic into ('in') or out of ('out') it."""
    return f"t__{tenant}__{direction}"


def policy_chain(policy: Policy, direction: str) -> str:
    """Shared chain holding one site policy's rules, jumped to from every tenant chain."""
    return f"p__{policy.id}__{direction}"


def selector(direction: str) -> str:
    """The interface the tenant chain was dispatched on, for keyed group lookups."""
    return "iifname" if direction == "in" else "oifname"


def family_nets(group: Group, family: int) -> list:
    """The group's networks of one family, merged so interval sets never overlap."""
    return list(ipaddress.collapse_addresses(n for n in group.cidrs if n.version == family))


def merged_ports(ports: Iterable[PortRange]) -> list[PortRange]:
    """Merge overlapping or adjacent port ranges (nft rejects overlapping intervals)."""
    out: list[PortRange] = []
    for rng in sorted(ports):
        if out and rng.start <= out[-1].end + 1:
            out[-1] = PortRange(out[-1].start, max(out[-1].end, rng.end))
        else:
            out.append(rng)
    return out


# ---------------------------------------------------------------- declarations

# name -> (key type, elements); elements keep insertion order for deterministic output
SetDecls = dict[str, tuple[str, list[str]]]


def set_decl(name: str, key_type: str, elements: list[str]) -> str:
    """Declaration of one interval set, inside a table block."""
    body = f"type {key_type}; flags interval;"
    if elements:
        body += f" elements = {{ {', '.join(elements)} }};"
    return f"\tset {name} {{ {body} }}"


def _add(decls: SetDecls, name: str, key_type: str, elements: list[str]) -> None:
    decls.setdefault(name, (key_type, []))[1].extend(elements)


def site_group_decls(group: Group, decls: SetDecls) -> None:
    """Plain address sets of a site group, one per non-empty family."""
    for family, _, key_type in FAMILIES:
        nets = family_nets(group, family)
        if nets:
            _add(decls, group_set(group, family), key_type, [str(n) for n in nets])


def tenant_groups(tenant: Tenant) -> list[Group]:
    """Every tenant-scoped group the tenant's rules use, sorted by name."""
    groups = {g.name: g for p in tenant.policies for r in p.rules
              for g in r.sources + r.destinations if g.scope is Scope.TENANT}
    return [groups[k] for k in sorted(groups)]


def tenant_set_decls(tenant: Tenant, decls: SetDecls | None = None) -> SetDecls:
    """The tenant's elements ("<interface>" . <network>) in the shared group sets."""
    decls = {} if decls is None else decls
    for group in tenant_groups(tenant):
        for family, _, key_type in FAMILIES:
            nets = family_nets(group, family)
            if nets:
                _add(decls, group_set(group, family), f"ifname . {key_type}",
                     [f'"{tenant.interface}" . {n}' for n in nets])
    return decls


def service_set_decl(service: Service, decls: SetDecls) -> None:
    """Port set of a service, if it has ports."""
    if service.ports:
        _add(decls, service_set(service), "inet_service",
             [str(p) for p in merged_ports(service.ports)])


def all_set_decls(site: Site) -> SetDecls:
    """Every named set of the ruleset, in a stable order."""
    decls: SetDecls = {}
    for group in site.groups:
        site_group_decls(group, decls)
    for service in site.services:
        service_set_decl(service, decls)
    for tenant in site.tenants:
        tenant_set_decls(tenant, decls)
    return decls


# ---------------------------------------------------------------- rule statements


def _addr_options(groups: tuple[Group, ...], family: int, side: str, direction: str,
                  expand: bool) -> list[str] | None:
    """Match fragments for one side and family; None means ANY, [] means no match."""
    if not groups:
        return None
    proto = "ip" if family == 4 else "ip6"
    out = []
    for group in groups:
        nets = family_nets(group, family)
        if expand:
            out += [f"{proto} {side} {n}" for n in nets]
        elif nets and group.scope is Scope.TENANT:
            out.append(f"{selector(direction)} . {proto} {side} @{group_set(group, family)}")
        elif nets:
            out.append(f"{proto} {side} @{group_set(group, family)}")
    return out


def address_matches(rule: Rule, direction: str, expand: bool = False) -> list[str]:
    """Address parts of the statements for a rule (cartesian over groups and families)."""
    if not rule.sources and not rule.destinations:
        return [""]
    parts = []
    for family, _, _ in FAMILIES:
        srcs = _addr_options(rule.sources, family, "saddr", direction, expand)
        dsts = _addr_options(rule.destinations, family, "daddr", direction, expand)
        for src in [None] if srcs is None else srcs:
            for dst in [None] if dsts is None else dsts:
                parts.append(" ".join(x for x in (src, dst) if x) + " ")
    return parts


def service_matches(service: Service, expand: bool = False) -> list[str]:
    """Protocol and port parts of the statements for one service."""
    if service.protocol is Protocol.ANY:
        return [""]
    if service.protocol is Protocol.ICMP:
        # Two statements rather than an anonymous set: every set costs nft load time.
        return ["meta l4proto icmp ", "meta l4proto ipv6-icmp "]
    text = f"meta l4proto {service.protocol.value} "
    if not service.ports:
        return [text]
    if expand:
        return [f"{text}th dport {p} " for p in merged_ports(service.ports)]
    return [f"{text}th dport @{service_set(service)} "]


def applies(rule: Rule, direction: str) -> bool:
    """Whether a rule is enforced at this side of the tenant interface."""
    return rule.enabled and rule.direction in (Direction(direction), Direction.IN_OUT)


def rule_statements(policy: Policy, rule: Rule, direction: str, prefix: str = "",
                    expand: bool = False) -> list[str]:
    """The nft statements of one rule; several when it spans families, groups or services."""
    tag = f"{policy.id}/{rule.id}"
    tail = f'log prefix "enclave {tag} " ' if rule.logged else ""
    tail += f'{VERDICT[rule.action]} comment "{tag}"'
    services = [m for s in rule.services for m in service_matches(s, expand)] or [""]
    return [f"{prefix}{addr}{svc}{tail}".replace("  ", " ").lstrip()
            for addr in address_matches(rule, direction, expand) for svc in services]


def tenant_chain_body(site: Site, tenant: Tenant, direction: str) -> list[str]:
    """Statements of one tenant chain: site policies by jump, own policies inline, in order."""
    lines = []
    for policy in sorted(site.policies + tenant.policies, key=lambda p: p.order):
        if policy.scope is Scope.SITE:
            if any(applies(r, direction) for r in policy.rules):
                lines.append(f"jump {policy_chain(policy, direction)}")
            continue
        for rule in policy.rules:
            if applies(rule, direction):
                lines.extend(rule_statements(policy, rule, direction))
    return lines


def policy_chain_body(policy: Policy, direction: str) -> list[str]:
    """Statements of one shared site-policy chain."""
    return [s for r in policy.rules if applies(r, direction)
            for s in rule_statements(policy, r, direction)]


# ---------------------------------------------------------------- full ruleset


def _chain_block(name: str, lines: list[str], header: str = "") -> list[str]:
    out = [f"\tchain {name} {{"]
    if header:
        out.append(f"\t\t{header}")
    out += [f"\t\t{line}" for line in lines]
    out.append("\t}")
    return out


def _base_chains(maps: bool = True) -> list[str]:
    """Hooked chains: stateful fast path, then one verdict-map lookup per packet."""
    out = []
    for _, name, hook, selector, vmap in HOOKS:
        lines = ["ct state established,related accept"]
        if maps:
            lines.append(f"{selector} vmap @{vmap}")
        out += _chain_block(name, lines, f"type filter hook {hook} priority filter; policy accept;")
    return out


def _dispatch_maps(site: Site) -> list[str]:
    out = []
    for direction, _, _, _, vmap in HOOKS:
        elems = [f'"{t.interface}" : jump {tenant_chain(t.name, direction)}'
                 for t in sorted(site.tenants, key=lambda t: t.interface)]
        body = "type ifname : verdict;"
        if elems:
            body += f" elements = {{ {', '.join(elems)} }};"
        out.append(f"\tmap {vmap} {{ {body} }}")
    return out


def _preamble() -> list[str]:
    # Create-then-delete makes the load idempotent and touches no other table.
    return [f"table {TABLE} {{", "}", f"delete table {TABLE}", f"table {TABLE} {{"]


def compile_ruleset(site: Site) -> str:
    """The complete, deterministic ruleset for one node, replacing only our table."""
    lines = _preamble()
    lines += [set_decl(name, *decl) for name, decl in all_set_decls(site).items()]
    lines += _dispatch_maps(site)
    for policy in site.policies:
        for direction, *_ in HOOKS:
            lines += _chain_block(policy_chain(policy, direction),
                                  policy_chain_body(policy, direction))
    for tenant in site.tenants:
        for direction, *_ in HOOKS:
            lines += _chain_block(tenant_chain(tenant.name, direction),
                                  tenant_chain_body(site, tenant, direction))
    lines += _base_chains()
    lines.append("}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- incremental update


def _shared_sets(tenant: Tenant) -> list[str]:
    """Idempotently ensure the site sets this tenant uses exist (adding is a no-op if so)."""
    decls: SetDecls = {}
    services = {s.name: s for p in tenant.policies for r in p.rules for s in r.services}
    groups = {g.name: g for p in tenant.policies for r in p.rules
              for g in r.sources + r.destinations if g.scope is Scope.SITE}
    for key in sorted(groups):
        site_group_decls(groups[key], decls)
    for key in sorted(services):
        service_set_decl(services[key], decls)
    lines = []
    for name, (key_type, elements) in decls.items():
        lines.append(f"add set {TABLE} {name} {{ type {key_type}; flags interval; }}")
        lines.append(f"add element {TABLE} {name} {{ {', '.join(elements)} }}")
    return lines


def _update_tenant_elements(tenant: Tenant, previous: Tenant | None) -> list[str]:
    """Element diff in the shared group sets: delete what went away, add what is new."""
    new = tenant_set_decls(tenant)
    old = tenant_set_decls(previous) if previous is not None else {}
    lines = []
    for name in sorted(set(new) | set(old)):
        key_type = (new.get(name) or old[name])[0]
        now, before = new.get(name, ("", []))[1], old.get(name, ("", []))[1]
        gone = [e for e in before if e not in now]
        lines.append(f"add set {TABLE} {name} {{ type {key_type}; flags interval; }}")
        if gone:
            lines.append(f"delete element {TABLE} {name} {{ {', '.join(gone)} }}")
        if fresh := [e for e in now if e not in before]:
            lines.append(f"add element {TABLE} {name} {{ {', '.join(fresh)} }}")
    return lines


def _update_maps(tenant: Tenant, previous: Tenant | None) -> list[str]:
    lines = []
    for direction, _, _, _, vmap in HOOKS:
        if previous is not None and previous.interface != tenant.interface:
            lines.append(f'delete element {TABLE} {vmap} {{ "{previous.interface}" }}')
        chain = tenant_chain(tenant.name, direction)
        lines.append(f'add element {TABLE} {vmap} {{ "{tenant.interface}" : jump {chain} }}')
    return lines


def compile_tenant_update(site: Site, name: str, previous: Tenant | None = None) -> str:
    """Atomic nft script replacing one tenant's chains and its elements of the shared sets.

    `previous` is the tenant as last applied (None for a tenant new to the node): its
    elements are removed from the shared sets, since nft cannot flush one tenant's part.
    """
    tenant = site.tenant(name)
    lines = _shared_sets(tenant)
    for direction, *_ in HOOKS:
        chain = tenant_chain(name, direction)
        lines += [f"add chain {TABLE} {chain}", f"flush chain {TABLE} {chain}"]
    lines += _update_tenant_elements(tenant, previous)
    for direction, *_ in HOOKS:
        chain = tenant_chain(name, direction)
        lines += [f"add rule {TABLE} {chain} {s}"
                  for s in tenant_chain_body(site, tenant, direction)]
    lines += _update_maps(tenant, previous)
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- linear baseline


def compile_linear(site: Site) -> str:
    """Baseline: the same rules as one linear chain per hook, one statement per address/port."""
    lines = _preamble()
    for direction, name, hook, selector, _ in HOOKS:
        body = ["ct state established,related accept"]
        for tenant in site.tenants:
            prefix = f'{selector} "{tenant.interface}" '
            for policy, rule in site.rules_for(tenant):
                if applies(rule, direction):
                    body += rule_statements(policy, rule, direction, prefix, expand=True)
        lines += _chain_block(name, body,
                              f"type filter hook {hook} priority filter; policy accept;")
    lines.append("}")
    return "\n".join(lines) + "\n"
