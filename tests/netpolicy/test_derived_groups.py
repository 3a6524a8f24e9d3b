"""Groups from intent: login holds the login VMs, all the segments, NFS/DNS the site settings; changes propagate."""

import pytest

from core.viewer_text import SITE_ADMIN
from netpolicy import findings, ipam, propagation, site
from netpolicy.compiler import nft
from netpolicy.ir import build_site, tenant_name
from netpolicy.models import Group
from tenants import services
from tests.conftest import service_data
from tests.netpolicy.test_ipam import segment  # noqa: F401 (fixture: tenant A's /29 segment)

pytestmark = pytest.mark.django_db


def lint(tenant_id) -> list[dict]:
    """Every finding for one tenant's rules (None: the site policies')."""
    return [entry for found in findings.findings([tenant_id], SITE_ADMIN).by_rule.values() for entry in found]


def groups_of(tenant, name):
    """The IR's tenant group of that name, as the compilers see it."""
    ir_tenant = build_site([tenant]).tenant(tenant_name(tenant.pk))
    found = {g.name: g for p in ir_tenant.policies for r in p.rules for g in r.sources + r.destinations}
    return [str(c) for c in found[name].cidrs]


def test_the_login_group_holds_the_login_vms_addresses_and_follows_release(world, segment):  # noqa: F811
    cluster = services.create_cluster(world.tenant_a, world.owner_a, service_data())
    ipam.reserve(cluster, segment, [("a-login", "login", "primary"), ("a-w01", "worker", "primary")])
    assert groups_of(world.tenant_a, "login") == ["10.70.0.2/32"]
    assert groups_of(world.tenant_a, "all") == ["10.70.0.0/29"]
    findings = lint(world.tenant_a.pk)
    assert not [f for f in findings if f["kind"] == "matches-nothing" and "login" in f["message"]]
    ipam.release(cluster)
    assert groups_of(world.tenant_a, "login") == []


def test_the_site_nfs_and_dns_groups_hold_the_site_settings_servers_in_every_compiler(world):
    site.update_settings(world.admin, {"nfs_servers": ["10.255.0.0/28"], "dns_servers": ["10.255.1.53"]})
    assert groups_of(world.tenant_a, "nfs_servers") == ["10.255.0.0/28"]
    assert groups_of(world.tenant_a, "dns_servers") == ["10.255.1.53/32"]
    ruleset = nft.compile_ruleset(build_site([world.tenant_a]))
    assert "s__nfs_servers__4 { type ipv4_addr; flags interval; elements = { 10.255.0.0/28 }" in ruleset


def test_hand_edits_of_derived_groups_are_refused_with_their_source(world, api):
    nfs = Group.objects.get(tenant=None, name="nfs_servers")
    refused = api(world.admin).patch(f"/api/v1/groups/{nfs.pk}/", {"cidrs": ["10.1.1.1/32"]}, format="json")
    assert refused.status_code == 400
    assert "holds the site settings' nfs servers; its addresses cannot be edited by hand" in refused.json()["cidrs"][0]
    renamed = api(world.admin).patch(f"/api/v1/groups/{nfs.pk}/", {"name": "nfs_old"}, format="json")
    assert renamed.status_code == 400 and "name" in renamed.json()
    everyone = Group.objects.get(tenant=world.tenant_a, name="all")
    widened = api(world.owner_a).patch(f"/api/v1/groups/{everyone.pk}/", {"all_segments": False}, format="json")
    assert widened.status_code == 400 and "all_segments" in widened.json()
    described = api(world.owner_a).patch(f"/api/v1/groups/{everyone.pk}/", {"description": "ours"}, format="json")
    assert described.status_code == 200  # the description is not derived


def test_address_and_settings_changes_reach_every_enforcement_point_after_commit(
    world,
    segment,  # noqa: F811 - the imported fixture
    django_capture_on_commit_callbacks,
):
    seen = []
    propagation.register("test-probe", seen.append)
    try:
        cluster = services.create_cluster(world.tenant_a, world.owner_a, service_data())
        with django_capture_on_commit_callbacks(execute=True):
            ipam.reserve(cluster, segment, [("a-login", "login", "primary")])
        with django_capture_on_commit_callbacks(execute=True):
            site.update_settings(world.admin, {"dns_servers": ["10.255.1.53"]})
    finally:
        propagation._CONSUMERS.pop("test-probe")
    assert seen == [frozenset({world.tenant_a.pk}), None]
