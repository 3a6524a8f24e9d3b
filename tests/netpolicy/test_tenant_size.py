"""One tenant's compiled part is bounded: a rule multiplying groups and services cannot swell every node's document."""

import pytest

from core.errors import InvalidRequest
from netpolicy import rules
from netpolicy.choices import Action, Category
from netpolicy.compiler import nft
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
    with pytest.raises(InvalidRequest, match=f"more than the {nft.MAX_TENANT_BYTES // 1024} KiB one tenant may have"):
        rules.save_rule(world.owner_a, data)
    assert not FirewallRule.objects.filter(name="wide").exists()


def test_a_large_but_ordinary_rule_is_accepted(world):
    data = _wide_rule(world, 10, list(Service.objects.filter(name__in=["ssh", "nfs"])))
    assert rules.save_rule(world.owner_a, data).pk
