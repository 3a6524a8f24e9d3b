"""Firewall policies and rules: permission-checked, audited edits, refused if they break the policy."""

from django.db import transaction

from audit.services import record, snapshot
from core.errors import Forbidden, InvalidRequest
from core.rows import locked
from netpolicy import propagation
from netpolicy.checks import compiling
from netpolicy.choices import TENANT_CATEGORIES, SegmentKind
from netpolicy.compiler import vds
from netpolicy.compiler.model import PolicyError
from netpolicy.ir import build_site, tenant_name
from netpolicy.models import FirewallPolicy, FirewallRule
from netpolicy.names import readable, scope_viewer
from netpolicy.policy import (
    M2M_FIELDS,
    RULE_FIELDS,
    _save,
    check_rule_groups,
    require_editor,
    require_owner_editor,
)
from netpolicy.policy import rule_snapshot as rule_state
from tenants.access import is_site_admin
from tenants.choices import LIVE_STATES, SiteKind
from tenants.models import Tenant, VirtualCluster

MAX_SEQUENCE = 2**31 - 1  # the column is a PostgreSQL integer


def save_policy(user, data: dict, instance: FirewallPolicy | None = None) -> FirewallPolicy:
    """Create or change a policy; owners keep to the environment and application categories."""
    with transaction.atomic():
        instance = locked(instance)  # checks and writes see the row as it is now, not the view's copy
        require_owner_editor(user, instance, data, "policy")
        tenant = data.get("tenant", instance.tenant if instance else None)
        category = data.get("category", instance.category if instance else None)
        if tenant is not None and not is_site_admin(user) and category not in TENANT_CATEGORIES:
            raise Forbidden(f"Tenant owners may not place policies in the {category} category.")
        with compiling(getattr(tenant, "pk", None)):
            policy = instance or FirewallPolicy()
            before = snapshot(policy) if instance else None
            for key, value in data.items():
                setattr(policy, key, value)
            action = "firewall_policy.update" if instance else "firewall_policy.create"
            policy = _save(policy, action, before, tenant)
            _refuse_unenforceable(policy.tenant_id)
            propagation.changed(policy.tenant_id)
    return policy


def delete_policy(user, policy: FirewallPolicy) -> None:
    """Delete a policy and its rules."""
    require_editor(user, policy.tenant_id)
    with transaction.atomic(), compiling(policy.tenant_id):
        policy = locked(policy)  # the audit keeps the row as it was deleted, not the view's copy
        record("firewall_policy.delete", policy, before=snapshot(policy), tenant=policy.tenant_id)
        propagation.changed(policy.tenant_id)
        policy.delete()


def _check_sequence(policy: FirewallPolicy, sequence: int, rule_pk=None) -> None:
    clash = policy.rules.filter(sequence=sequence).exclude(pk=rule_pk).first()
    if clash is not None:
        raise InvalidRequest(
            f"Sequence number {sequence} is already used by rule '{clash.name}' in this policy.", "sequence"
        )


def save_rule(user, data: dict, instance: FirewallRule | None = None) -> FirewallRule:
    """Create or change a rule; the rule keeps its id whatever its sequence number becomes."""
    with transaction.atomic():
        instance = locked(instance)  # checks and writes see the row as it is now, not the view's copy
        policy = data.get("policy", instance.policy if instance else None)
        if instance is not None and policy.pk != instance.policy_id:
            raise InvalidRequest("A rule cannot move to another policy.", "policy")
        require_editor(user, policy.tenant_id)
        merged = _merged(instance, data)
        check_rule_groups(user, policy, merged)
        _check_sequence(policy, merged["sequence"], getattr(instance, "pk", None))
        with compiling(policy.tenant_id):
            rule = instance or FirewallRule(policy=policy)
            before = rule_state(rule) if instance else None
            for key in RULE_FIELDS:
                if key in data:
                    setattr(rule, key, data[key])
            rule.save()
            for key in M2M_FIELDS:
                if key in data:
                    getattr(rule, key).set(data[key])
            action = "firewall_rule.update" if instance else "firewall_rule.create"
            record(action, rule, before=before, after=rule_state(rule), tenant=policy.tenant_id)
            _refuse_unenforceable(policy.tenant_id)
            propagation.changed(policy.tenant_id)
    return rule


def move_rule(user, rule: FirewallRule, up: bool) -> FirewallRule:
    """Swap sequence numbers with the neighbouring rule; both rules keep their ids."""
    require_editor(user, rule.policy.tenant_id)
    with transaction.atomic(), compiling(rule.policy.tenant_id):
        rules = list(FirewallRule.objects.select_for_update().filter(policy_id=rule.policy_id).order_by("sequence"))
        index = next(i for i, r in enumerate(rules) if r.pk == rule.pk)
        other = index - 1 if up else index + 1
        if not 0 <= other < len(rules):
            raise InvalidRequest(
                f"Rule '{rule.name}' is already the {'first' if up else 'last'} rule of its policy.", "sequence"
            )
        mine, theirs = rules[index], rules[other]
        befores = [rule_state(mine), rule_state(theirs)]
        spare = _spare_sequence(rules)  # (policy, sequence) is unique, so swap through a free one
        steps = ((mine, spare), (theirs, mine.sequence), (mine, theirs.sequence))
        for obj, sequence in steps:
            obj.sequence = sequence
            obj.save(update_fields=["sequence", "updated"])
        for obj, before in zip((mine, theirs), befores, strict=True):
            record(
                "firewall_rule.update",
                obj,
                before=before,
                after=rule_state(obj),
                tenant=rule.policy.tenant_id,
                message="moved",
            )
        _refuse_unenforceable(rule.policy.tenant_id)
        propagation.changed(rule.policy.tenant_id)
    return mine


def _spare_sequence(rules: list[FirewallRule]) -> int:
    """A sequence number no rule of the policy uses (after the last if that fits the column, else a gap)."""
    used = {r.sequence for r in rules}
    if rules[-1].sequence < MAX_SEQUENCE:
        return rules[-1].sequence + 1
    return next(n for n in range(MAX_SEQUENCE + 1) if n not in used)


def _merged(instance: FirewallRule | None, data: dict) -> dict:
    """The rule's values after the change (for validation before anything is written)."""
    if instance is None:
        return dict(data)
    merged = {k: getattr(instance, k) for k in RULE_FIELDS}
    merged.update({k: list(getattr(instance, k).all()) for k in M2M_FIELDS})
    merged.update(data)
    return merged


def delete_rule(user, rule: FirewallRule) -> None:
    """Delete a rule."""
    require_editor(user, rule.policy.tenant_id)
    with transaction.atomic(), compiling(rule.policy.tenant_id):
        rule = locked(rule)  # the audit keeps the row as it was deleted, not the view's copy
        record("firewall_rule.delete", rule, before=rule_state(rule), tenant=rule.policy.tenant_id)
        propagation.changed(rule.policy.tenant_id)
        rule.delete()


def _refuse_unenforceable(tenant_id) -> None:
    """Where VMs on vSphere enforce the policy, refuse a rule the switch filter cannot express.

    The tenant's VMs (any tenant's, for site rules): the rule would otherwise be left unenforced there.
    """
    if not _has_vm_clusters(tenant_id):
        return
    try:
        site = build_site(Tenant.objects.filter(pk=tenant_id) if tenant_id else Tenant.objects.none())
    except PolicyError as exc:
        raise InvalidRequest(readable(str(exc), scope_viewer(tenant_id))) from None
    tenant = site.tenant(tenant_name(tenant_id)) if tenant_id else None
    refused = [n.message for n in vds.notes(site, tenant) if n.kind is vds.NoteKind.REFUSED]
    if refused:
        raise InvalidRequest(
            readable("; ".join(refused), scope_viewer(tenant_id)) + " (the tenant's VMs on vSphere enforce it)"
        )


def _has_vm_clusters(tenant_id) -> bool:
    """Whether live clusters on vSphere enforce this tenant's policy (any tenant's, for site objects)."""
    live = VirtualCluster.objects.filter(site_kind=SiteKind.VSPHERE, state__in=LIVE_STATES)
    # NSX's distributed firewall enforces those; `placement` is vsphere's (a reverse lookup: netpolicy imports nothing)
    live = live.exclude(placement__segment__kind=SegmentKind.OVERLAY)
    return (live.filter(tenant_id=tenant_id) if tenant_id else live).exists()
