"""What the vSphere switch filter cannot express is refused by lint, by rule saves and by approval; never silent."""

import pytest

from core.errors import InvalidRequest
from core.viewer_text import SITE_ADMIN
from netpolicy import findings, policy, rules
from netpolicy.models import FirewallPolicy, Group
from tenants import services
from tests.vsphere.sites import capacity_site, cluster_of

pytestmark = pytest.mark.django_db


def lint(tenant_id) -> list[dict]:
    """Every finding for one tenant's rules (None: the site policies')."""
    return [entry for found in findings.findings([tenant_id], SITE_ADMIN).by_rule.values() for entry in found]


def one_way_any(world):
    """Tenant A's owner allows every protocol from a partner network into the tenant, one way."""
    partners = policy.save_group(world.owner_a, {"tenant": world.tenant_a, "name": "partners",
                                                 "cidrs": ["198.51.100.0/24"]})  # fmt: skip
    every = Group.objects.get(tenant=world.tenant_a, name="all")
    isolation = FirewallPolicy.objects.get(tenant=world.tenant_a, name="isolation")
    return {"policy": isolation, "name": "partners_in", "sequence": 50, "action": "allow", "direction": "in",
            "sources": [partners], "destinations": [every], "services": []}  # fmt: skip


def test_lint_names_a_rule_the_switch_cannot_enforce_and_notes_approximations(world):
    rule = rules.save_rule(world.owner_a, one_way_any(world))  # no VMs on vSphere yet: accepted, flagged
    refused = [f for f in lint(world.tenant_a.pk) if f["kind"] == "vds-refused"]
    assert [f["rule"] for f in refused] == [rule.pk]
    assert "'partners_in' allows every protocol one way" in refused[0]["message"]
    site = [f["message"] for f in lint(None) if f["kind"] == "vds-approximate"]
    assert "rule site/site_default_deny/'reject_all' is enforced as drop on vSphere" in " ".join(site)


def test_with_vms_on_vsphere_such_a_rule_is_refused_at_save(world, reconcile_held):
    capacity_site()
    services.approve_cluster(cluster_of(world.tenant_a, world.owner_a, submit=True), world.admin)
    with pytest.raises(InvalidRequest, match="allows every protocol one way.*VMs on vSphere enforce it"):
        rules.save_rule(world.owner_a, one_way_any(world))
    assert not FirewallPolicy.objects.get(tenant=world.tenant_a, name="isolation").rules.filter(
        name="partners_in").exists()  # fmt: skip


def test_approval_is_refused_while_the_policy_holds_such_a_rule(world, reconcile_held):
    capacity_site()
    rules.save_rule(world.owner_a, one_way_any(world))
    cluster = cluster_of(world.tenant_a, world.owner_a, submit=True)
    with pytest.raises(InvalidRequest, match="cannot be enforced on vSphere.*partners_in|r\\d+"):
        services.approve_cluster(cluster, world.admin)
    cluster.refresh_from_db()
    assert cluster.state == "endorsed"
