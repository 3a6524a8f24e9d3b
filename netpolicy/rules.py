"""Firewall policies and rules: permission-checked, audited edits with analysis on save."""

from django.db import transaction

from audit.services import record, snapshot
from netpolicy import propagation
from netpolicy.choices import TENANT_CATEGORIES
from netpolicy.compiler import analysis, vds
from netpolicy.compiler.model import PolicyError
from netpolicy.ir import build_site, tenant_name
from netpolicy.models import FirewallPolicy, FirewallRule
from netpolicy.policy import (
    M2M_FIELDS,
    RULE_FIELDS,
    _save,
    check_rule_groups,
    require_editor,
    require_owner_editor,
)
from netpolicy.policy import rule_snapshot as rule_state
from portal.errors import Forbidden, InvalidRequest
from tenants.access import is_site_admin
from tenants.choices import LIVE_STATES, SiteKind
from tenants.models import Tenant, VirtualCluster


def save_policy(user, data: dict, instance: FirewallPolicy | None = None) -> FirewallPolicy:
    """Create or change a policy; owners keep to the environment and application categories."""
    require_owner_editor(user, instance, data, "policy")
    tenant = data.get("tenant", instance.tenant if instance else None)
    category = data.get("category", instance.category if instance else None)
    if tenant is not None and not is_site_admin(user) and category not in TENANT_CATEGORIES:
        raise Forbidden(f"Tenant owners may not place policies in the {category} category.")
    with transaction.atomic():
        policy = instance or FirewallPolicy()
        before = snapshot(policy) if instance else None
        for key, value in data.items():
            setattr(policy, key, value)
        action = "firewall_policy.update" if instance else "firewall_policy.create"
        policy = _save(policy, action, before, tenant)
        _validate(policy.tenant_id)
        propagation.policy_changed(_affected(policy.tenant_id))
    return policy


def delete_policy(user, policy: FirewallPolicy) -> None:
    """Delete a policy and its rules."""
    require_editor(user, policy.tenant_id)
    with transaction.atomic():
        record("firewall_policy.delete", policy, before=snapshot(policy), tenant=policy.tenant_id)
        propagation.policy_changed(_affected(policy.tenant_id))
        policy.delete()


def _check_sequence(policy: FirewallPolicy, sequence: int, rule_pk=None) -> None:
    clash = policy.rules.filter(sequence=sequence).exclude(pk=rule_pk).first()
    if clash is not None:
        raise InvalidRequest(f"Sequence number {sequence} is already used by rule "
                             f"'{clash.name}' in this policy.", "sequence")


def save_rule(user, data: dict, instance: FirewallRule | None = None) -> FirewallRule:
    """Create or change a rule; the rule keeps its id whatever its sequence number becomes."""
    policy = data.get("policy", instance.policy if instance else None)
    if instance is not None and policy.pk != instance.policy_id:
        raise InvalidRequest("A rule cannot move to another policy.", "policy")
    require_editor(user, policy.tenant_id)
    merged = _merged(instance, data)
    check_rule_groups(user, policy, merged)
    _check_sequence(policy, merged["sequence"], getattr(instance, "pk", None))
    with transaction.atomic():
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
        _validate(policy.tenant_id)
        propagation.policy_changed(_affected(policy.tenant_id))
    return rule


def move_rule(user, rule: FirewallRule, up: bool) -> FirewallRule:
    """Swap sequence numbers with the neighbouring rule; both rules keep their ids."""
    require_editor(user, rule.policy.tenant_id)
    with transaction.atomic():
        rules = list(FirewallRule.objects.select_for_update().filter(policy_id=rule.policy_id)
                     .order_by("sequence"))
        index = next(i for i, r in enumerate(rules) if r.pk == rule.pk)
        other = index - 1 if up else index + 1
        if not 0 <= other < len(rules):
            raise InvalidRequest(f"Rule '{rule.name}' is already the {'first' if up else 'last'} "
                                 "rule of its policy.", "sequence")
        mine, theirs = rules[index], rules[other]
        befores = [rule_state(mine), rule_state(theirs)]
        spare = rules[-1].sequence + 1  # (policy, sequence) is unique, so swap through a free one
        steps = ((mine, spare), (theirs, mine.sequence), (mine, theirs.sequence))
        for obj, sequence in steps:
            obj.sequence = sequence
            obj.save(update_fields=["sequence", "updated"])
        for obj, before in zip((mine, theirs), befores, strict=True):
            record("firewall_rule.update", obj, before=before, after=rule_state(obj),
                   tenant=rule.policy.tenant_id, message="moved")
        _validate(rule.policy.tenant_id)
        propagation.policy_changed(_affected(rule.policy.tenant_id))
    return mine


def _affected(tenant_id) -> set[int] | None:
    """The tenants a policy object's change reaches: its own, or every tenant for site objects."""
    return {tenant_id} if tenant_id else None


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
    with transaction.atomic():
        record("firewall_rule.delete", rule, before=rule_state(rule),
               tenant=rule.policy.tenant_id)
        propagation.policy_changed(_affected(rule.policy.tenant_id))
        rule.delete()


def _validate(tenant_id) -> None:
    """Compile the affected tenant's IR: anything the compilers refuse is a 400, not a 500.

    Where VMs on vSphere enforce the policy (the tenant's, or any tenant's for site rules), a rule
    the switch filter cannot express is refused too, instead of being left unenforced there.
    """
    tenants = Tenant.objects.filter(pk=tenant_id) if tenant_id else Tenant.objects.none()
    try:
        site = build_site(tenants)
    except PolicyError as exc:
        raise InvalidRequest(str(exc)) from None
    if not _has_vm_clusters(tenant_id):
        return
    tenant = site.tenant(tenant_name(tenant_id)) if tenant_id else None
    refused = [n.message for n in vds.notes(site, tenant) if n.kind is vds.NoteKind.REFUSED]
    if refused:
        raise InvalidRequest(readable("; ".join(refused)) + " (the tenant's VMs on vSphere enforce it)")


def _has_vm_clusters(tenant_id) -> bool:
    """Whether live clusters on vSphere enforce this tenant's policy (any tenant's, for site objects)."""
    live = VirtualCluster.objects.filter(site_kind=SiteKind.VSPHERE, state__in=LIVE_STATES)
    return (live.filter(tenant_id=tenant_id) if tenant_id else live).exists()


def _vds_findings(site, tenant_id) -> list:
    """How the vSphere switch filter enforces the rules: refused or approximated (never silent)."""
    tenant = site.tenant(tenant_name(tenant_id)) if tenant_id else None
    return vds.notes(site, tenant)


def findings_for(tenant_id) -> list[dict]:
    """Analysis of one tenant (or of the site policies): shadowed, redundant, exposing rules."""
    if tenant_id is None:
        site = build_site(Tenant.objects.none())
        found = analysis.cover_findings(site, None)
    else:
        site = build_site(Tenant.objects.all())
        found = analysis.analyse_tenant(site, tenant_name(tenant_id))
    found = list(found) + _vds_findings(site, tenant_id)
    return [{"kind": f.kind.value, "rule": int(f.rule[1:]), "message": readable(f.message),
             "by_rule": int(f.by_rule[1:]) if getattr(f, "by_rule", None) else None} for f in found]


def readable(message: str) -> str:
    """Replace IR ids (p12/r34, t5) with the rules' names."""
    for token in sorted(set(message.replace("/", " ").split()), key=len, reverse=True):
        if token[:1] == "r" and token[1:].isdigit():
            rule = FirewallRule.objects.filter(pk=int(token[1:])).first()
            message = message.replace(token, f"'{rule.name}'" if rule else token)
        elif token[:1] == "p" and token[1:].isdigit():
            policy = FirewallPolicy.objects.filter(pk=int(token[1:])).first()
            message = message.replace(token, str(policy) if policy else token)
        elif token[:1] == "t" and token[1:].isdigit():
            tenant = Tenant.objects.filter(pk=int(token[1:])).first()
            message = message.replace(token, tenant.slug if tenant else token)
    return message
