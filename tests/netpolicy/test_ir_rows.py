"""The site is built from plain rows: the same rules, groups in the models' order, nothing half-read."""

import pytest

from netpolicy import ir
from netpolicy.models import FirewallPolicy, FirewallRule, Group, Service

pytestmark = pytest.mark.django_db


@pytest.fixture
def rule(world):
    """A tenant rule naming a site group and two of its tenant's groups, added in no particular order."""
    policy = FirewallPolicy.objects.filter(tenant=world.tenant_a).first()
    made = FirewallRule.objects.create(policy=policy, name="mixed", sequence=990, action="allow")
    site_group = Group.objects.create(name="zz_site")
    mine = [Group.objects.create(tenant=world.tenant_a, name=n, cidrs=["10.9.0.0/24"]) for n in ("beta", "alpha")]
    made.sources.set([site_group, *mine])
    made.destinations.set(mine[:1])
    return made


def _built(tenant_ids=None) -> dict[int, ir.RuleRow]:
    services = {s.pk: s for s in Service.objects.all()}
    return {r.pk: r for p in ir._policies(services, tenant_ids) for r in p.rules}


@pytest.mark.parametrize("scoped", [True, False])
def test_a_rules_groups_are_in_the_models_order_and_its_services_by_name(world, rule, scoped):
    row = _built({world.tenant_a.pk} if scoped else None)[rule.pk]
    assert [g.name for g in row.sources] == [g.name for g in rule.sources.all()] == ["alpha", "beta", "zz_site"]
    assert [g.name for g in row.destinations] == ["beta"]
    assert _built({world.tenant_b.pk}).get(rule.pk) is None  # another tenant's build does not read it


def test_a_rule_deleted_while_the_site_is_read_is_left_out_not_built_without_its_groups(world, rule, monkeypatch):
    read_groups = ir._attach_members

    def deleted_first(by_pk, services, scoped):
        FirewallRule.objects.filter(pk=rule.pk).delete()  # between reading the rules and reading their groups
        return read_groups(by_pk, services, scoped)

    monkeypatch.setattr(ir, "_attach_members", deleted_first)
    assert rule.pk not in _built()


def test_a_rule_whose_group_vanished_while_the_site_is_read_is_left_out(world, rule, monkeypatch):
    read_rows = ir._group_rows
    monkeypatch.setattr(ir, "_group_rows", lambda ids=None: {k: v for k, v in read_rows(ids).items()
                                                             if v.name != "beta"})  # fmt: skip
    built = _built()
    assert rule.pk not in built and built  # the other rules are built
