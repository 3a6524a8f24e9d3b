"""An edit made from a copy read before another change committed keeps that change (services re-read under lock)."""

import pytest

from audit.models import AuditEvent
from core.errors import InvalidRequest, NotFound
from netpolicy import policy as policy_services
from netpolicy import rules
from netpolicy.models import FirewallPolicy, FirewallRule, Group, Service
from tenants import services as tenant_services
from tenants.models import Tenant
from tenants.network import network_changed

pytestmark = pytest.mark.django_db


def _fresh(obj):
    return type(obj).objects.get(pk=obj.pk)


def _last_before(action: str) -> dict:
    return AuditEvent.objects.filter(action=action).latest("pk").before


def test_a_rule_edit_from_a_stale_copy_keeps_a_disable_committed_meanwhile(world):
    stale = FirewallRule.objects.get(policy__tenant=world.tenant_a, name="intra_tenant")
    rules.save_rule(world.owner_a, {"enabled": False}, _fresh(stale))
    rules.save_rule(world.admin, {"description": "reviewed"}, stale)
    now = _fresh(stale)
    assert (now.enabled, now.description) == (False, "reviewed")
    assert _last_before("firewall_rule.update")["enabled"] is False  # the audit's "before" is what was there


def test_a_policy_edit_from_a_stale_copy_keeps_a_change_committed_meanwhile(world):
    stale = FirewallPolicy.objects.filter(tenant=world.tenant_a).first()
    rules.save_policy(world.owner_a, {"description": "first"}, _fresh(stale))
    rules.save_policy(world.owner_a, {"name": stale.name}, stale)
    assert _fresh(stale).description == "first"
    assert _last_before("firewall_policy.update")["description"] == "first"


def test_a_group_edit_from_a_stale_copy_keeps_a_change_committed_meanwhile(world):
    stale = Group.objects.create(tenant=world.tenant_a, name="scratch", cidrs=["10.200.0.0/24"])
    policy_services.save_group(world.owner_a, {"cidrs": ["10.200.1.0/24"]}, _fresh(stale))
    policy_services.save_group(world.owner_a, {"description": "lab"}, stale)
    now = _fresh(stale)
    assert (now.cidrs, now.description) == (["10.200.1.0/24"], "lab")


def test_a_service_edit_from_a_stale_copy_keeps_a_change_committed_meanwhile(world):
    stale = Service.objects.create(name="scratch", protocol="tcp", ports="5000")
    policy_services.save_service(world.admin, {"ports": "5001"}, _fresh(stale))
    policy_services.save_service(world.admin, {"description": "app"}, stale)
    now = _fresh(stale)
    assert (now.ports, now.description) == ("5001", "app")


def test_a_tenant_rename_from_a_stale_copy_keeps_a_network_generation_bumped_meanwhile(world):
    stale = Tenant.objects.get(pk=world.tenant_a.pk)
    network_changed([world.tenant_a])
    bumped = _fresh(stale).network_generation
    tenant_services.update_tenant(stale, name="Renamed")
    now = _fresh(stale)
    assert (now.name, now.network_generation) == ("Renamed", bumped)


def test_an_edit_of_a_row_deleted_meanwhile_is_a_clear_404(world):
    stale = FirewallRule.objects.get(policy__tenant=world.tenant_a, name="intra_tenant")
    FirewallRule.objects.filter(pk=stale.pk).delete()
    with pytest.raises(NotFound, match="deleted meanwhile"):
        rules.save_rule(world.owner_a, {"description": "x"}, stale)


def test_a_tenants_slug_never_changes_because_names_in_vcenter_carry_it(world):
    with pytest.raises(InvalidRequest, match="slug never changes"):
        tenant_services.update_tenant(world.tenant_a, slug="renamed")
    assert _fresh(world.tenant_a).slug == "tenant-a"


def test_a_rule_deleted_from_a_stale_copy_is_audited_as_it_was_when_deleted(world):
    stale = FirewallRule.objects.get(policy__tenant=world.tenant_a, name="intra_tenant")
    rules.save_rule(world.owner_a, {"description": "last words"}, _fresh(stale))
    rules.delete_rule(world.owner_a, stale)
    assert _last_before("firewall_rule.delete")["description"] == "last words"
