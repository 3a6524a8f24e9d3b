"""Firewall intent changes: the default policy, and audited, permission-checked edits."""

from django.db import IntegrityError, transaction
from django.db.models import Q

from audit.services import record, record_many, snapshot
from core.addresses import AddressError, parse_network
from core.errors import Forbidden, InvalidRequest
from core.rows import locked
from netpolicy import propagation
from netpolicy.checks import compiling
from netpolicy.choices import Action, Category, Direction, NodeRole
from netpolicy.compiler import defaults
from netpolicy.compiler.model import PolicyError
from netpolicy.ir import canonical_ports
from netpolicy.models import FirewallPolicy, FirewallRule, Group, Service
from tenants.access import is_owner, is_site_admin, require_member
from tenants.network import network_changed

RULE_FIELDS = ("name", "sequence", "action", "direction", "logged", "enabled", "description")
M2M_FIELDS = ("sources", "destinations", "services")


# ---------------------------------------------------------------- audit helpers


def rule_snapshot(rule: FirewallRule) -> dict:
    """Concrete fields plus the ids of the rule's groups and services."""
    data = snapshot(rule)
    for field in M2M_FIELDS:
        data[field] = sorted(getattr(rule, field).values_list("pk", flat=True))
    return data


def _save(obj, action: str, before: dict | None, tenant, message: str = ""):
    """Save inside a savepoint; a unique-constraint clash becomes a clear 400."""
    try:
        with transaction.atomic():
            obj.save()
    except IntegrityError:
        raise InvalidRequest(f"A {obj._meta.verbose_name} named '{obj.name}' already exists here.", "name") from None
    record(action, obj, before=before, after=snapshot(obj), tenant=tenant, message=message)
    return obj


def _create_all(objs: list, action: str, tenant, message: str) -> list:
    """Create new objects in one INSERT inside a savepoint, each audited (one INSERT too), as _save does one."""
    if not objs:
        return []
    model = type(objs[0])
    try:
        with transaction.atomic():
            made = model.objects.bulk_create(objs)
    except IntegrityError:
        names = " or ".join(f"'{obj.name}'" for obj in objs)
        raise InvalidRequest(f"A {model._meta.verbose_name} named {names} already exists here.", "name") from None
    record_many(action, [(obj, None, snapshot(obj)) for obj in made], tenant=tenant, message=message)
    return made


# ---------------------------------------------------------------- defaults


def ensure_seeded_services() -> dict[str, Service]:
    """The seeded catalogue (SSH, ICMP, DHCP, DNS, NFS, Slurm), created once; one query once it exists."""
    names = [seed.name for seed in defaults.SEEDED_SERVICES]
    services = {service.name: service for service in Service.objects.filter(name__in=names)}
    missing = [
        Service(
            name=seed.name, protocol=seed.protocol.value, ports=",".join(map(str, seed.ports)), description="seeded"
        )
        for seed in defaults.SEEDED_SERVICES
        if seed.name not in services
    ]
    services.update((service.name, service) for service in _create_all(missing, "service.create", None, "seeded"))
    return services


def _add_rules(policy: FirewallPolicy, specs: list[dict]) -> list[FirewallRule]:
    """Create a new policy's rules, their group and service links in one insert per table, each audited.

    A tenant's creation makes eleven rules: saved one by one with their links, that was ~140 queries."""
    rules = FirewallRule.objects.bulk_create(
        [FirewallRule(policy=policy, **{k: v for k, v in spec.items() if k not in M2M_FIELDS}) for spec in specs]
    )
    made = list(zip(rules, specs, strict=True))
    for field in M2M_FIELDS:
        relation = getattr(FirewallRule, field)
        through, own, other = relation.through, relation.field.m2m_column_name(), relation.field.m2m_reverse_name()
        links = [through(**{own: r.pk, other: o.pk}) for r, spec in made for o in spec.get(field, ())]
        through.objects.bulk_create(links)
    changes = [
        (rule, None, snapshot(rule) | {field: sorted(o.pk for o in spec.get(field, ())) for field in M2M_FIELDS})
        for rule, spec in made
    ]
    record_many("firewall_rule.create", changes, tenant=policy.tenant_id, message="default policy")
    return rules


def _rule(name, sequence, action, sources=(), destinations=(), services=(), direction=Direction.IN_OUT, logged=False):
    """One default rule's fields and links, for _add_rules."""
    return {
        "name": name, "sequence": sequence, "action": action, "direction": direction, "logged": logged,
        "sources": sources, "destinations": destinations, "services": services,
    }  # fmt: skip


def _ensure_groups(tenant, wanted: dict[str, Group]) -> dict[str, Group]:
    """The named groups of a tenant (or the site, for None), the missing ones created from `wanted`."""
    found = {g.name: g for g in Group.objects.filter(tenant=tenant, name__in=list(wanted))}
    missing = [group for name, group in wanted.items() if name not in found]
    found.update((group.name, group) for group in _create_all(missing, "group.create", tenant, "default policy"))
    return found


def _site_policy(name: str, sequence: int, category: str) -> FirewallPolicy:
    policy = FirewallPolicy(name=name, sequence=sequence, category=category)
    return _save(policy, "firewall_policy.create", None, None, "default policy")


def ensure_site_defaults() -> tuple[Group, Group, dict[str, Service]]:
    """The default site policies (ICMP and DHCP allowed, everything else rejected), once.

    Returns the site's NFS and DNS groups and the seeded services, for the tenant policy to name."""
    svc = ensure_seeded_services()
    about = "public service; its addresses come from the site settings"
    groups = _ensure_groups(
        None, {name: Group(name=name, description=about) for name in ("nfs_servers", "dns_servers")}
    )
    names = (defaults.SITE_BASE_POLICY, defaults.SITE_DEFAULT_DENY_POLICY)
    present = set(FirewallPolicy.objects.filter(tenant__isnull=True, name__in=names).values_list("name", flat=True))
    if defaults.SITE_BASE_POLICY not in present:
        base = _site_policy(defaults.SITE_BASE_POLICY, 10, Category.INFRASTRUCTURE)
        icmp, dhcp = [svc["icmp"]], [svc["dhcp"]]
        _add_rules(
            base,
            [
                _rule("allow_icmp", 10, Action.ALLOW, services=icmp),
                _rule("allow_dhcp", 20, Action.ALLOW, services=dhcp),
            ],
        )
    if defaults.SITE_DEFAULT_DENY_POLICY not in present:
        deny = _site_policy(defaults.SITE_DEFAULT_DENY_POLICY, defaults.DEFAULT_DENY_SEQUENCE, Category.APPLICATION)
        _add_rules(deny, [_rule("reject_all", 10, Action.REJECT, logged=True)])
    return groups["nfs_servers"], groups["dns_servers"], svc


def create_default_policy(tenant) -> FirewallPolicy:
    """Intra-tenant allow, SSH from outside to the login node only, tenant to NFS and DNS."""
    nfs, dns, svc = ensure_site_defaults()
    # Reuse the tenant's groups if they survived an earlier policy (ensure_default_policies).
    wanted = {
        "all": Group(tenant=tenant, name="all", all_segments=True),
        "login": Group(tenant=tenant, name="login", role=NodeRole.LOGIN),
    }
    groups = _ensure_groups(tenant, wanted)
    every, login = [groups["all"]], [groups["login"]]
    policy = _save(
        FirewallPolicy(tenant=tenant, name="isolation", sequence=100, category=Category.APPLICATION),
        "firewall_policy.create",
        None,
        tenant,
        "default policy",
    )
    _add_rules(policy, [
        _rule("intra_tenant", 10, Action.ALLOW, every, every),
        _rule("ssh_to_login", 20, Action.ALLOW, [], login, [svc["ssh"]], Direction.IN),
        _rule("tenant_to_nfs", 30, Action.ALLOW, every, [nfs], [svc["nfs_tcp"], svc["nfs_udp"]], Direction.OUT),
        _rule("tenant_to_dns", 40, Action.ALLOW, every, [dns], [svc["dns_udp"], svc["dns_tcp"]], Direction.OUT),
    ])  # fmt: skip
    network_changed([tenant])
    return policy


# ---------------------------------------------------------------- permissions


def require_editor(user, tenant_id) -> None:
    """Site objects: site admins. Tenant objects: the tenant's owners and site admins."""
    if tenant_id is None:
        if not is_site_admin(user):
            raise Forbidden("Only site admins edit site-wide policy objects.")
        return
    require_member(user, tenant_id)
    if not (is_site_admin(user) or is_owner(user, tenant_id)):
        raise Forbidden("Only a tenant owner or a site admin may edit the tenant's policy.")


def require_owner_editor(user, instance, data: dict, what: str) -> int | None:
    """Check the editor against the object's current owner and the one asked for; return the owner's id.

    Objects never move between tenants, or between the site and a tenant, not even for site admins: a
    moved policy or group would keep rules and references naming its old owner's objects, and its audit
    trail would follow it into a tenant that never had it. Create a new one in the other place instead.
    """
    new = data.get("tenant", instance.tenant if instance else None)
    new_id = getattr(new, "pk", None)
    if instance is None:
        require_editor(user, new_id)
        return new_id
    require_editor(user, instance.tenant_id)
    require_editor(user, new_id)
    if new_id != instance.tenant_id:
        raise InvalidRequest(
            f"A {what} stays with the tenant it was created in (or with the site); create a "
            f"new {what} where you need it instead.",
            "tenant",
        )
    return new_id


def check_rule_groups(user, policy: FirewallPolicy, data: dict) -> None:
    """Groups of another tenant are refused; owners' allow rules must stay inside the tenant."""
    groups = list(data.get("sources", [])) + list(data.get("destinations", []))
    for group in groups:
        if group.tenant_id is not None and group.tenant_id != policy.tenant_id:
            raise InvalidRequest(f"Group {group.pk} belongs to another tenant.", "sources")
    if is_site_admin(user) or data.get("action") != Action.ALLOW:
        return  # site admins decide site-wide; drop and reject can only tighten
    if not data.get("sources") or not data.get("destinations"):
        raise InvalidRequest(
            "Tenant owners may only allow traffic between named groups of "
            "their own tenant (ANY would open the tenant).",
            "sources",
        )
    outside = [g for g in groups if g.tenant_id != policy.tenant_id]
    if outside:
        raise InvalidRequest(
            f"Tenant owners may only allow traffic between their own groups; {outside[0]} is a site group.",
            "destinations",
        )


# ---------------------------------------------------------------- services and groups


def save_service(user, data: dict, instance: Service | None = None) -> Service:
    """Create or change a service (site admins)."""
    require_editor(user, None)
    with transaction.atomic():
        instance = locked(instance)  # the row as it is now, not the view's copy
        try:
            ports = canonical_ports(data.get("ports", instance.ports if instance else ""))
        except PolicyError as exc:
            raise InvalidRequest(str(exc), "ports") from None
        if "ports" in data:
            data["ports"] = ports
        with compiling(None):
            service = instance or Service()
            before = snapshot(service) if instance else None
            for key, value in data.items():
                setattr(service, key, value)
            action = "service.update" if instance else "service.create"
            service = _save(service, action, before, None)
            propagation.site_changed()  # every tenant's rules may name the service
            return service


def check_cidrs(cidrs: list) -> list[str]:
    """Canonical networks only (core.addresses): the offending value is named."""
    out = []
    for text in cidrs:
        try:
            out.append(str(parse_network(text)))
        except AddressError as exc:
            raise InvalidRequest(str(exc), "cidrs") from None
    return out


def _refuse_derived_edits(instance: Group | None, data: dict) -> None:
    """Derived groups follow intent (VMs, segments, site settings): their addresses are not typed in."""
    after = Group(**{f.name: getattr(instance, f.name) for f in Group._meta.concrete_fields} if instance else {})
    for key, value in data.items():
        setattr(after, key, value)
    source = after.derived_from or (instance.derived_from if instance else "")
    if not source:
        return
    if after.cidrs:
        raise InvalidRequest(f"Group {after.name} holds {source}; its addresses cannot be edited by hand.", "cidrs")
    if instance is not None and instance.derived_from:
        for field in ("name", "role", "all_segments", "segment_id"):
            if getattr(after, field) != getattr(instance, field):
                raise InvalidRequest(f"Group {instance.name} holds {source}; its {field.removesuffix('_id')} "
                                     "cannot be changed.", field.removesuffix("_id"))  # fmt: skip


def save_group(user, data: dict, instance: Group | None = None) -> Group:
    """Create or change a group; a segment must belong to the group's tenant."""
    with transaction.atomic():
        instance = locked(instance)  # checks and writes see the row as it is now, not the view's copy
        require_owner_editor(user, instance, data, "group")
        tenant = data.get("tenant", instance.tenant if instance else None)
        if "cidrs" in data:
            data["cidrs"] = check_cidrs(data["cidrs"])
        _refuse_derived_edits(instance, data)
        segment = data.get("segment")
        if segment is not None and segment.tenant_id != getattr(tenant, "pk", None):
            raise InvalidRequest("The segment belongs to another tenant.", "segment")
        with compiling(getattr(tenant, "pk", None)):
            group = instance or Group()
            before = snapshot(group) if instance else None
            for key, value in data.items():
                setattr(group, key, value)
            group = _save(group, "group.update" if instance else "group.create", before, tenant)
            propagation.changed(tenant.pk if tenant else None)
            return group


def delete_group(user, group: Group) -> None:
    """Delete a group no rule names (derived groups follow intent and stay); audited with its last state."""
    require_editor(user, group.tenant_id)
    with transaction.atomic(), compiling(group.tenant_id):
        group = Group.objects.select_for_update().get(pk=group.pk)
        if group.derived_from:
            raise InvalidRequest(f"Group {group.name} holds {group.derived_from}; it follows intent and stays.")
        used = sorted(FirewallRule.objects.filter(Q(sources=group) | Q(destinations=group))
                      .values_list("name", flat=True).distinct()[:5])  # fmt: skip
        if used:
            raise InvalidRequest(
                f"Group {group.name} is used by rule(s) {', '.join(used)}: remove it from them (or delete them) first."
            )
        record("group.delete", group, before=snapshot(group), tenant=group.tenant_id)
        propagation.changed(group.tenant_id)
        group.delete()
