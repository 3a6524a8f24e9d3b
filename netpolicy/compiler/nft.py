"""Compile a Site to an nftables ruleset: one owned table, per-tenant chains, named sets."""

from __future__ import annotations

import gc
import hashlib
from bisect import bisect_left
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from .model import Group, Scope, Service, Site, Tenant
from .nft_statements import (
    FAMILIES,
    applies,
    family_nets,
    family_texts,
    group_set,
    group_shape,
    jump_lines,
    memo,
    merged,
    merged_ports,
    net_text,
    policy_chain,
    policy_chain_body,
    policy_lines,
    remember_shape,
    rule_statements,
    service_set,
    service_shape,
    split_families,
    tenant_chain,
    tenant_chain_body,
)

TABLE = "inet enclave"
INGRESS_MAP = "ingress_if"
EGRESS_MAP = "egress_if"
# (direction, base chain, hook, interface selector, dispatch map)
HOOKS = (("in", "input", "input", "iifname", INGRESS_MAP), ("out", "output", "output", "oifname", EGRESS_MAP))


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
            _add(decls, group_set(group, family), key_type, list(family_texts(group, family)))


def tenant_groups(tenant: Tenant) -> list[Group]:
    """Every tenant-scoped group the tenant's rules use, sorted by name."""
    groups = {
        g.name: g
        for p in tenant.policies
        for r in p.rules
        for g in r.sources + r.destinations
        if g.scope is Scope.TENANT
    }
    return [groups[k] for k in sorted(groups)]


def tenant_set_decls(tenant: Tenant, decls: SetDecls | None = None) -> SetDecls:
    """The tenant's elements ("<interface>" . <network>) in the shared group sets."""
    return _tenant_elements(tenant.interface, tenant_groups(tenant), decls)


def _tenant_elements(interface: str, groups: list[Group], decls: SetDecls | None = None) -> SetDecls:
    decls = {} if decls is None else decls
    key = f'"{interface}" . '
    for group in groups:
        for family, _, key_type in FAMILIES:
            texts = family_texts(group, family)
            if texts:
                _add(decls, group_set(group, family), f"ifname . {key_type}", [key + text for text in texts])
    return decls


def service_set_decl(service: Service, decls: SetDecls) -> None:
    """Port set of a service, if it has ports."""
    if service.ports:
        _add(decls, service_set(service), "inet_service", [str(p) for p in merged_ports(service.ports)])


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


def _dispatch_maps(tenants: Iterable[Tenant | TenantPart]) -> list[str]:
    out = []
    tenants = sorted(tenants, key=lambda t: t.interface)
    for direction, _, _, _, vmap in HOOKS:
        elems = [f'"{t.interface}" : jump {tenant_chain(t.name, direction)}' for t in tenants]
        body = "type ifname : verdict;"
        if elems:
            body += f" elements = {{ {', '.join(elems)} }};"
        out.append(f"\tmap {vmap} {{ {body} }}")
    return out


def _preamble() -> list[str]:
    # Create-then-delete makes the load idempotent and touches no other table.
    return [f"table {TABLE} {{", "}", f"delete table {TABLE}", f"table {TABLE} {{"]


# A compiled set: (name, key type, elements)
SetPart = tuple[str, str, tuple[str, ...]]


@dataclass(frozen=True)
class TenantPart:
    """One tenant's share of a ruleset: its elements of the shared sets and its two chains."""

    name: str
    interface: str
    sets: tuple[SetPart, ...]
    chains: str

    def to_dict(self) -> dict:
        """JSON-ready form, for storing compiled parts."""
        return {
            "name": self.name,
            "interface": self.interface,
            "chains": self.chains,
            "sets": [[n, k, list(e)] for n, k, e in self.sets],
        }

    @classmethod
    def from_dict(cls, data: dict) -> TenantPart:
        return cls(data["name"], data["interface"], tuple((n, k, tuple(e)) for n, k, e in data["sets"]), data["chains"])


@dataclass(frozen=True)
class SitePart:
    """The tenant-independent share: site group and service sets, the site policies' chains."""

    sets: tuple[SetPart, ...]
    chains: str


def _set_parts(decls: SetDecls) -> tuple[SetPart, ...]:
    return tuple((name, key_type, tuple(elements)) for name, (key_type, elements) in decls.items())


def tenant_part(site: Site, tenant: Tenant) -> TenantPart:
    """Compile one tenant against the site's policies (its chains jump to theirs)."""
    # The hot loop of a full compile (10,000 tenants): one pass over the rules builds both
    # chains, as tenant_chain_body would; the site policies' jumps go in by their order.
    chain_in = [f"\tchain {tenant_chain(tenant.name, 'in')} {{"]
    chain_out = [f"\tchain {tenant_chain(tenant.name, 'out')} {{"]
    orders, jumps = _site_plan(site)
    sets = _tenant_sets(tenant.interface, tenant.groups)  # memoizes the groups' shapes too
    done = 0
    for policy in tenant.policies:  # sorted by order, as the site's are
        upto = bisect_left(orders, policy.order)
        for jump_in, jump_out in jumps[done:upto]:
            chain_in += jump_in
            chain_out += jump_out
        done = max(done, upto)
        policy_lines(policy, chain_in, chain_out)
    for jump_in, jump_out in jumps[done:]:
        chain_in += jump_in
        chain_out += jump_out
    chain_in.append("\t}")
    chain_in += chain_out
    chain_in.append("\t}")
    return TenantPart(tenant.name, tenant.interface, sets, "\n".join(chain_in))


def _site_plan(site: Site) -> tuple[list[tuple], list[tuple[list[str], list[str]]]]:
    """The site policies' orders and their jump lines ("in", "out"), computed once per site."""
    plan = site.__dict__.get("_nft_plan")
    if plan is None:
        for service in site.services:
            service_shape(service)  # memoized, for policy_lines
        plan = ([p.order for p in site.policies], [jump_lines(p) for p in site.policies])
        site.__dict__["_nft_plan"] = plan
    return plan


def site_refs(tenant: Tenant) -> tuple[str, ...]:
    """The site objects a tenant's rules name ("s:" services, "g:" site groups, by name), sorted."""
    refs: set[str] = set()
    for policy in tenant.policies:
        for rule in policy.rules:
            refs.update(f"g:{g.name}" for g in (*rule.sources, *rule.destinations) if g.scope is not Scope.TENANT)
            refs.update(f"s:{service.name}" for service in rule.services)
    return tuple(sorted(refs))


def site_inputs(site: Site, refs: Iterable[str]) -> str:
    """Digest of all that tenant_part reads from the site for a tenant naming `refs`.

    That is the site policies' orders and jump lines, and the shapes of the named services and site
    groups (their set names and families, never their ports or addresses: those are the site part's
    sets). A tenant part stored with another digest is out of date; a name gone digests as gone.
    """
    refs = tuple(refs)
    cache = site.__dict__.setdefault("_nft_inputs", {})
    if refs not in cache:
        shapes = site.__dict__.get("_nft_shapes")
        if shapes is None:
            shapes = {f"s:{s.name}": service_shape(s) for s in site.services}
            shapes |= {f"g:{g.name}": group_shape(g) for g in site.groups}
            site.__dict__["_nft_shapes"] = shapes
        text = repr((_site_plan(site), [(ref, shapes.get(ref)) for ref in refs]))
        cache[refs] = hashlib.sha256(text.encode()).hexdigest()
    return cache[refs]


def _tenant_sets(interface: str, groups: dict[str, Group]) -> tuple[SetPart, ...]:
    """_tenant_elements as set parts (each group name has its own sets, so none merge).

    Memoizes each group's shape for policy_lines, from the same split by family.
    """
    # The texts are not memoized: each tenant's groups are its own, and what a compile leaves
    # on 60,000 group objects the collector then has to walk.
    key = f'"{interface}" . '
    sets = []
    for name in sorted(groups):
        group = groups[name]
        v4, v6 = split_families(group)
        remember_shape(group, bool(v4), bool(v6))
        if v4:
            texts = merged(v4)[1] if len(v4) > 1 else (net_text(v4[0]),)
            sets.append((group_set(group, 4), _KEYED[4], tuple([key + text for text in texts])))
        if v6:
            texts = merged(v6)[1] if len(v6) > 1 else (net_text(v6[0]),)
            sets.append((group_set(group, 6), _KEYED[6], tuple([key + text for text in texts])))
    return tuple(sets)


_KEYED = {family: f"ifname . {key_type}" for family, _, key_type in FAMILIES}


def site_part(site: Site) -> SitePart:
    """Compile what every tenant of the site shares."""
    decls: SetDecls = {}
    for group in site.groups:
        site_group_decls(group, decls)
    for service in site.services:
        service_set_decl(service, decls)
    lines: list[str] = []
    for policy in site.policies:
        for direction, *_ in HOOKS:
            lines += _chain_block(policy_chain(policy, direction), policy_chain_body(policy, direction))
    return SitePart(_set_parts(decls), "\n".join(lines))


def assemble(site: SitePart, tenants: Iterable[TenantPart]) -> str:
    """The complete ruleset from compiled parts: only string joins, no compiling."""
    parts = sorted(tenants, key=_part_name)
    key_types = {name: key_type for name, key_type, _ in site.sets}
    elements = {name: list(found) for name, _, found in site.sets}
    for part in parts:
        for name, key_type, found in part.sets:
            known = elements.get(name)
            if known is None:
                key_types[name], elements[name] = key_type, list(found)
            else:
                known += found
    lines = _preamble()
    lines += [set_decl(name, key_types[name], found) for name, found in elements.items()]
    lines += _dispatch_maps(parts)
    lines += [text for text in [site.chains, *[p.chains for p in parts]] if text]
    lines += _base_chains()
    lines += ["}", ""]  # the empty last line ends the text with a newline, without a copy
    return "\n".join(lines)


def _part_name(part: TenantPart) -> str:
    return part.name


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause the cycle collector: compiling creates no cycles, but at 10,000 tenants the IR holds
    millions of objects, and the full collections that its allocations trigger cost more than
    the compile itself."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def compile_ruleset(site: Site) -> str:
    """The complete, deterministic ruleset for one node, replacing only our table."""
    with _collector_paused():
        return assemble(site_part(site), [tenant_part(site, t) for t in site.tenants])


# ---------------------------------------------------------------- incremental update


def _shared_sets(tenant: Tenant) -> list[str]:
    """Idempotently ensure the site sets this tenant uses exist (adding is a no-op if so)."""
    decls: SetDecls = {}
    services = {s.name: s for p in tenant.policies for r in p.rules for s in r.services}
    groups = {
        g.name: g for p in tenant.policies for r in p.rules for g in r.sources + r.destinations if g.scope is Scope.SITE
    }
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
    tenant = memo(site, "_nft_tenants", lambda: {t.name: t for t in site.tenants}).get(name)
    if tenant is None:
        tenant = site.tenant(name)  # raises the IR's error for an unknown tenant
    lines = _shared_sets(tenant)
    for direction, *_ in HOOKS:
        chain = tenant_chain(name, direction)
        lines += [f"add chain {TABLE} {chain}", f"flush chain {TABLE} {chain}"]
    lines += _update_tenant_elements(tenant, previous)
    for direction, *_ in HOOKS:
        chain = tenant_chain(name, direction)
        lines += [f"add rule {TABLE} {chain} {s}" for s in tenant_chain_body(site, tenant, direction)]
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
        lines += _chain_block(name, body, f"type filter hook {hook} priority filter; policy accept;")
    lines.append("}")
    return "\n".join(lines) + "\n"
