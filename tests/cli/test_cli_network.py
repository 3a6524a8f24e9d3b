"""Segments and firewall rules by name through the `enclave` command line."""

import json

import pytest
import yaml

from netpolicy.models import FirewallRule, Segment
from tenants import services
from tests.cli.conftest import one_line_failure
from tests.netpolicy.test_netpolicy_db_segments import make_pools

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_segment_is_requested_listed_shown_and_retired_by_name(enclave, tokens, world):
    make_pools(world.admin)
    services.update_quota(world.tenant_a.quota, max_segments=10)
    requested = enclave("segments", "request", "s1", "--tenant", "tenant-a", "--kind", "vlan", "--wait",
                        "--timeout", "30", "-o", "json", token=tokens["admin"])  # fmt: skip
    assert requested.code == 0, requested.err
    data = json.loads(requested.out)
    assert (data["state"], data["vlan_id"], data["subnet"]) == ("approved", 100, "10.64.0.0/24")
    assert "s1: approved" in requested.err

    listed = enclave("segments", "list", "-t", "tenant-a", token=tokens["member"])
    assert listed.out.splitlines()[1].split()[:4] == ["s1", "vlan", "approved", "100"]
    shown = yaml.safe_load(enclave("segments", "show", "s1", "-t", "tenant-a", "-o", "yaml", token=tokens["owner"]).out)
    assert shown["id"] == Segment.objects.get(name="s1").pk

    retired = enclave("segments", "retire", "s1", "-t", "tenant-a", "-o", "json", token=tokens["owner"])
    assert json.loads(retired.out)["state"] == "retired", retired.err
    gone = enclave("segments", "show", "s2", "-t", "tenant-a", token=tokens["owner"])
    assert one_line_failure(gone) == "enclave: no segment in tenant 'tenant-a' named 's2'"


def rule_args(*extra):
    return ("--tenant", "tenant-a", "--policy", "isolation", *extra)


def test_rules_are_created_updated_and_deleted_by_name_keeping_their_id(enclave, tokens, world):
    created = enclave("rules", "create", "web", *rule_args("--sequence", "500", "--action", "allow", "--direction",
                      "in", "--source", "all", "--destination", "all", "--service", "ssh", "-o", "json"),
                      token=tokens["owner"])  # fmt: skip
    assert created.code == 0, created.err
    rule = FirewallRule.objects.get(pk=json.loads(created.out)["id"])
    assert (rule.name, rule.sequence, [s.name for s in rule.services.all()]) == ("web", 500, ["ssh"])

    listed = enclave("rules", "list", *rule_args(), token=tokens["member"])
    rows = [line.split() for line in listed.out.splitlines()]
    assert rows[0][:4] == ["POLICY", "SEQUENCE", "ID", "NAME"]
    web = next(row for row in rows if row[3] == "web")
    assert web[:3] == ["isolation", "500", str(rule.pk)] and web[6:9] == ["all", "all", "ssh"]
    sequences = [int(row[1]) for row in rows[1:]]
    assert sequences == sorted(sequences)

    updated = enclave("rules", "update", "web", *rule_args("--sequence", "450", "--disabled", "-o", "json"),
                      token=tokens["owner"])  # fmt: skip
    assert (json.loads(updated.out)["id"], json.loads(updated.out)["sequence"]) == (rule.pk, 450), updated.err
    rule.refresh_from_db()
    assert rule.sequence == 450 and not rule.enabled

    deleted = enclave("rules", "delete", "web", *rule_args(), token=tokens["owner"])
    assert deleted.code == 0 and f"(id {rule.pk})" in deleted.err
    assert not FirewallRule.objects.filter(pk=rule.pk).exists()


def test_a_rule_naming_an_unknown_group_or_policy_is_one_line(enclave, tokens, world):
    before = FirewallRule.objects.count()
    group = enclave("rules", "create", "web", *rule_args("--sequence", "500", "--action", "allow", "--source",
                    "nobody"), token=tokens["owner"])  # fmt: skip
    assert one_line_failure(group) == "enclave: no group named 'nobody'"
    policy = enclave("rules", "list", "--tenant", "tenant-a", "--policy", "nope", token=tokens["owner"])
    assert "no firewall policy named 'nope' in tenant 'tenant-a'" in one_line_failure(policy)
    assert FirewallRule.objects.count() == before
