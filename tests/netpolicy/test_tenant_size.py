"""One tenant's compiled part is bounded: a rule multiplying groups and services cannot swell every node's document."""

import pytest

from agents import sources
from core.errors import InvalidRequest
from netpolicy import rules
from netpolicy.choices import Action, Category
from netpolicy.ir import QUARANTINE
from netpolicy.models import FirewallRule, Group, Service

pytestmark = pytest.mark.django_db


def _groups(tenant, prefix: str, octet: int, n: int) -> list[Group]:
    made = [Group(tenant=tenant, name=f"{prefix}{i}", cidrs=[f"10.{octet}.{i}.0/24"]) for i in range(n)]
    return Group.objects.bulk_create(made)


def _wide_rule(world, n: int, services: list[Service]) -> dict:
    policy = rules.save_policy(world.owner_a, {"name": "big", "tenant": world.tenant_a,
                                               "category": Category.APPLICATION, "sequence": 50})  # fmt: skip
    return {
        "policy": policy,
        "name": "wide",
        "sequence": 10,
        "action": Action.ALLOW,
        "services": services,
        "sources": _groups(world.tenant_a, "s", 201, n),
        "destinations": _groups(world.tenant_a, "d", 202, n),
    }


def test_a_rule_whose_statements_would_pass_a_tenants_bound_is_refused_and_nothing_is_saved(world):
    data = _wide_rule(world, 60, list(Service.objects.exclude(protocol="any")))  # 60 x 60 groups x 8 services
    with pytest.raises(InvalidRequest, match="more than one tenant may have"):
        rules.save_rule(world.owner_a, data)
    assert not FirewallRule.objects.filter(name="wide").exists()


def test_a_large_but_ordinary_rule_is_accepted(world):
    data = _wide_rule(world, 10, list(Service.objects.filter(name__in=["ssh", "nfs"])))
    assert rules.save_rule(world.owner_a, data).pk


def test_a_tenant_stored_past_the_bound_is_quarantined_on_nodes_and_the_others_compile(world):
    data = _wide_rule(world, 60, list(Service.objects.exclude(protocol="any")))
    rule = FirewallRule.objects.create(policy=data["policy"], name="wide", sequence=10, action=Action.ALLOW)
    rule.sources.set(data["sources"])  # as a tenant saved before the bound would be
    rule.destinations.set(data["destinations"])
    rule.services.set(data["services"])
    parts = sources.nft_parts([world.tenant_a.pk, world.tenant_b.pk])
    assert QUARANTINE in parts[world.tenant_a.pk][0].chains and QUARANTINE not in parts[world.tenant_b.pk][0].chains
