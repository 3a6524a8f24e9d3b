"""A web process keeps its last lint builds by the generations they were built from: a second look reads
less, and every change made through the services is seen at once."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from netpolicy import findings, policy, rules
from netpolicy.models import FirewallPolicy, FirewallRule, Group, Service

pytestmark = pytest.mark.django_db


def lint_reads(user_api, tenant) -> tuple[int, dict]:
    """Queries of one rule-list page of the tenant, and the findings it shows by rule name."""
    with CaptureQueriesContext(connection) as queries:
        page = user_api.get(f"/api/v1/firewall-rules/?tenant={tenant.pk}&limit=200").json()["results"]
    return len(queries), {r["name"]: sorted(f["kind"] for f in r["findings"]) for r in page}


def isolation(tenant):
    return FirewallPolicy.objects.get(tenant=tenant, name="isolation")


def test_a_second_look_at_the_same_rules_reuses_the_build(world, api):
    first, shown = lint_reads(api(world.owner_a), world.tenant_a)
    second, again = lint_reads(api(world.owner_a), world.tenant_a)
    assert again == shown and second <= first - 8, (first, second)


def test_a_kept_build_is_not_used_past_its_age(world, api, monkeypatch):
    first, _ = lint_reads(api(world.owner_a), world.tenant_a)
    monkeypatch.setattr(findings, "KEPT_SECONDS", 0.0)
    second, _ = lint_reads(api(world.owner_a), world.tenant_a)
    assert second == first


def test_an_owners_rule_change_is_linted_at_once(world, api):
    every = Group.objects.get(tenant=world.tenant_a, name="all")
    lint_reads(api(world.owner_a), world.tenant_a)
    rules.save_rule(world.owner_a, {"policy": isolation(world.tenant_a), "name": "again", "sequence": 90,
                                    "action": "allow", "sources": [every], "destinations": [every]})  # fmt: skip
    _, shown = lint_reads(api(world.owner_a), world.tenant_a)
    assert shown["again"] == ["redundant"]
    rules.save_rule(world.owner_a, {"enabled": False}, FirewallRule.objects.get(name="again"))
    _, shown = lint_reads(api(world.owner_a), world.tenant_a)
    assert shown["again"] == ["matches-nothing"]  # disabled: no longer redundant with intra_tenant


def test_a_site_change_is_linted_at_once(world, api):
    """A tenant rule that a site drop rule shadows says so as soon as the site rule exists."""
    campus = policy.save_group(world.admin, {"name": "campus", "cidrs": ["192.0.2.0/24"]})
    ssh = Service.objects.get(name="ssh")
    rules.save_rule(world.admin, {"policy": isolation(world.tenant_a), "name": "campus_ssh", "sequence": 95,
                                  "action": "drop", "sources": [campus], "services": [ssh]})  # fmt: skip
    _, before = lint_reads(api(world.admin), world.tenant_a)
    site = rules.save_policy(world.admin, {"name": "site_block", "category": "emergency", "sequence": 1})
    rules.save_rule(world.admin, {"policy": site, "name": "block_campus", "sequence": 10, "action": "drop",
                                  "sources": [campus]})  # fmt: skip
    _, after = lint_reads(api(world.admin), world.tenant_a)
    assert before["campus_ssh"] == [] and after["campus_ssh"] != [], (before, after)
