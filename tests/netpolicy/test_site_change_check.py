"""A site change is checked on the site's part alone: it costs the same at any tenant count and cannot
break a tenant (every tenant is rebuilt here after each kind of site change to show it)."""

import pytest

from netpolicy import checks
from netpolicy.compiler import nft, nsx
from netpolicy.ir import build_site_isolating
from netpolicy.models import FirewallPolicy, FirewallRule, Group, Service
from tenants import services
from tests.reads import reading

pytestmark = pytest.mark.django_db


def _site_check_reads() -> tuple[int, int]:
    """(queries, rows) the site change check reads."""
    with reading() as reads:
        assert checks.problems(None) == {}
    return reads.queries, reads.rows


def test_a_site_change_is_checked_reading_the_same_rows_for_two_tenants_or_twelve(world):
    few = _site_check_reads()
    for index in range(10):
        services.create_tenant(f"extra-{index}", f"Extra {index}", owner=world.owner_b)
    assert _site_check_reads() == few


def _every_tenant_as_before(broken: set[int]) -> None:
    """Every tenant rebuilt: the same ones quarantined, and the whole site compiles."""
    built = build_site_isolating()
    assert set(built.broken) == broken
    nft.compile_ruleset(built.site)
    nsx.export_infra(built.site)


def _site_changes(admin, world):
    """Each kind of site change an admin makes through the API, touching what tenants' rules name."""
    dns = Service.objects.get(name="dns_udp")
    nfs = Group.objects.get(tenant__isnull=True, name="nfs_servers")
    yield admin.patch(f"/api/v1/services/{dns.pk}/", {"ports": "53,5353"}, format="json")
    yield admin.post("/api/v1/services/", {"name": "lustre", "protocol": "tcp", "ports": "988"}, format="json")
    yield admin.patch(f"/api/v1/groups/{nfs.pk}/", {"description": "filers"}, format="json")
    yield admin.post("/api/v1/groups/", {"name": "mirrors", "cidrs": ["198.51.100.0/24"]}, format="json")
    mirrors = Group.objects.get(tenant__isnull=True, name="mirrors")
    yield admin.patch(f"/api/v1/groups/{mirrors.pk}/", {"cidrs": ["198.51.100.0/25", "2001:db8::/64"]},
                      format="json")  # fmt: skip
    yield admin.post("/api/v1/firewall-policies/", {"name": "edge", "category": "environment", "sequence": 50},
                     format="json")  # fmt: skip
    edge = FirewallPolicy.objects.get(tenant__isnull=True, name="edge")
    rule = {"policy": edge.pk, "name": "mirrors_in", "sequence": 10, "action": "allow",
            "sources": [mirrors.pk], "destinations": [nfs.pk], "services": [dns.pk]}  # fmt: skip
    yield admin.post("/api/v1/firewall-rules/", rule, format="json")
    made = FirewallRule.objects.get(policy=edge, name="mirrors_in")
    yield admin.patch(f"/api/v1/firewall-rules/{made.pk}/", {"action": "drop", "sequence": 20}, format="json")
    yield admin.delete(f"/api/v1/firewall-rules/{made.pk}/")
    yield admin.delete(f"/api/v1/groups/{mirrors.pk}/")
    yield admin.delete(f"/api/v1/firewall-policies/{edge.pk}/")


def test_no_kind_of_site_change_breaks_or_mends_a_tenant(world, api):
    Group.objects.filter(tenant=world.tenant_a, name="login").update(cidrs=["fe80::1%lo/128"])  # older data
    broken = {world.tenant_a.pk}
    _every_tenant_as_before(broken)
    for response in _site_changes(api(world.admin), world):
        assert response.status_code in (200, 201, 204), response.content
        _every_tenant_as_before(broken)


def test_a_site_change_that_breaks_the_sites_part_is_still_refused_with_nothing_written(world, api):
    nfs = Service.objects.get(name="nfs_tcp")
    response = api(world.admin).patch(f"/api/v1/services/{nfs.pk}/", {"protocol": "any"}, format="json")
    assert response.status_code == 400
    assert "service nfs_tcp: ports only apply to tcp and udp" in response.json()["detail"]
    assert Service.objects.get(pk=nfs.pk).protocol == "tcp"
