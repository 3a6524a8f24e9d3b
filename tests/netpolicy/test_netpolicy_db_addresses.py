"""Every address netpolicy takes is canonical: no scope ids, no whitespace, no other spelling; never a 500."""

import json

import pytest

from netpolicy.models import Group
from tests.netpolicy.test_netpolicy_db_segments import make_pools
from tests.security.framework import assert_nothing_changed, state_digest

pytestmark = pytest.mark.django_db

BAD_NETWORKS = [
    "2001:db8::%a b\nzz/128",  # the reproduction of issue 8: a scope id with a space and a newline
    "fe80::1%lo/128",
    "10.0.0.0/8\n",
    " 10.0.0.0/8",
    "10.0.0.0 /8",
    "10.0.0.0/255.0.0.0",  # a netmask instead of a prefix length
    "2001:DB8::/32",  # upper case
    "2001:db8:0::/48",  # not compressed
    "10.0.0.1",  # no prefix length
    "10.0.0.0/8,10.1.0.0/16",
    "10.0.0.1/24",  # host bits
    "10.0.0.0/33",
    "٣.0.0.0/8",  # a non-ASCII digit int() would accept
]


def test_a_group_address_that_is_not_a_canonical_network_is_refused(world, api):
    before = state_digest()
    for cidr in BAD_NETWORKS:
        response = api(world.owner_a).post(
            "/api/v1/groups/", {"name": "bad", "tenant": world.tenant_a.pk, "cidrs": [cidr]}, format="json"
        )
        assert response.status_code == 400, (cidr, response.content)
        assert "cidrs" in response.json()
    assert_nothing_changed(before)


def test_the_refusal_names_the_canonical_spelling(world, api):
    response = api(world.admin).post("/api/v1/groups/", {"name": "up", "cidrs": ["2001:DB8::/32"]}, format="json")
    assert "write 2001:db8::/32" in json.dumps(response.json())


def test_a_site_admin_cannot_store_such_an_address_in_a_site_group_either(world, api):
    nfs = Group.objects.get(tenant__isnull=True, name="nfs_servers")
    before = state_digest()
    for cidr in ["fe80::1%lo/128", "10.0.0.0/8\n"]:
        response = api(world.admin).patch(f"/api/v1/groups/{nfs.pk}/", {"cidrs": [cidr]}, format="json")
        assert response.status_code == 400
    assert_nothing_changed(before)


def test_the_group_page_refuses_a_scoped_address(world, client):
    group = Group.objects.get(tenant=world.tenant_a, name="login")
    client.force_login(world.owner_a)
    before = state_digest()
    response = client.post(f"/network/firewall/groups/{group.pk}/", {"cidrs": "fe80::1%lo/128"})
    assert response.status_code == 200 and "scope" in response.content.decode()
    assert_nothing_changed(before)


SEGMENT_BODIES = [
    {"subnet": "fd00:1::%eth0/64"},
    {"subnet": "fd00:1::/64%eth0"},
    {"subnet": "10.64.9.0/24\n"},
    {"subnet": "10.64.9.0/24", "gateway": "10.64.9.1%eth0"},
    {"subnet": "10.64.9.0/24", "gateway": " 10.64.9.1"},
    {"subnet": "10.64.9.0/24", "gateway": "10.64.9.0"},
    {"subnet": "fd00:1::/64", "gateway": "fe80::1%eth0"},
]


def test_a_segment_with_a_scoped_or_spaced_subnet_or_gateway_is_a_clear_400(world, api):
    make_pools(world.admin)
    api(world.admin).post("/api/v1/pools/", {"name": "v6", "kind": "ipv6", "cidr": "fd00::/16"}, format="json")
    before = state_digest()
    for body in SEGMENT_BODIES:
        response = api(world.member_a).post(
            "/api/v1/segments/", {"tenant": world.tenant_a.pk, "name": "s", "kind": "vlan", **body}, format="json"
        )
        assert response.status_code == 400, (body, response.content)
    assert_nothing_changed(before)


def test_a_pool_supernet_that_is_not_a_canonical_network_is_a_clear_400(world, api):
    before = state_digest()
    for cidr in ["10.200.0.1/16", "10.200.0.0/16 ", "fd00:9::%x/48", "10.200.0.0/255.255.0.0", "fd00:9::/48%x"]:
        kind = "ipv6" if ":" in cidr else "ipv4"
        response = api(world.admin).post("/api/v1/pools/", {"name": "p", "kind": kind, "cidr": cidr}, format="json")
        assert response.status_code == 400, (cidr, response.content)
    assert_nothing_changed(before)


def test_what_if_refuses_a_scoped_or_spaced_address(world, api):
    for source in ["fe80::1%lo", "10.0.0.1 ", "10.0.0.1/32", "10.0.0.1\n"]:
        response = api(world.admin).post(
            "/api/v1/what-if/", {"source": source, "destination": "10.0.0.2", "protocol": "icmp"}, format="json"
        )
        assert response.status_code == 400 and "source" in response.json(), source


def test_service_ports_are_ascii_digits_ranges_and_commas_only(world, api):
    before = state_digest()
    for ports in ["22\n", " 22", "2_2", "٢٢", "22, 80", "+22", "22-", ",", "22,,80", "0", "70000", "80-22"]:
        response = api(world.admin).post("/api/v1/services/", {"name": "p", "protocol": "tcp", "ports": ports},
                                         format="json")  # fmt: skip
        assert response.status_code == 400 and "ports" in response.json(), ports
    assert_nothing_changed(before)


def test_ports_are_stored_as_written_canonically(world, api):
    response = api(world.admin).post("/api/v1/services/", {"name": "p", "protocol": "tcp", "ports": "6817-6819,22"},
                                     format="json")  # fmt: skip
    assert response.status_code == 201 and response.json()["ports"] == "6817-6819,22"


def test_the_nsx_export_domain_is_an_nsx_id(world, api):
    for domain in ["a/b", "x y", "default\n", "", "a" * 65, "../infra"]:
        response = api(world.admin).get("/api/v1/exports/nsx/", {"domain": domain})
        assert response.status_code == 400 and "domain" in response.json(), domain


def test_the_migration_rewrites_legacy_group_addresses_as_the_nodes_enforced_them():
    import importlib

    migration = importlib.import_module("netpolicy.migrations.0002_canonical_group_addresses")
    assert migration._canonical("2001:db8::%a b\nzz/128") == "2001:db8::/128"
    assert migration._canonical("fe80::1%lo/128") == "fe80::1/128"
    assert migration._canonical("10.0.0.0/8\n") == "10.0.0.0/8"
    assert migration._canonical("2001:DB8::/32") == "2001:db8::/32"
    assert migration._canonical("not a network") is None


def test_a_legacy_scoped_address_never_reaches_the_nsx_export(world, api):
    """Rows written before this validation: the export refuses the tenant that holds one, it never emits it."""
    login = Group.objects.get(tenant=world.tenant_a, name="login")
    Group.objects.filter(pk=login.pk).update(cidrs=["2001:db8::%a b\nzz/128"])
    response = api(world.admin).get("/api/v1/exports/nsx/")
    assert response.status_code == 200
    text = response.content.decode()
    assert "%" not in text and "zz/128" not in text
    assert response["X-Enclave-Quarantined"] == world.tenant_a.slug


def test_free_text_never_reaches_the_exports(world, api):
    """Rule, policy and group names and descriptions are shown in the portal only; nft and NSX get ids."""
    from netpolicy.models import FirewallPolicy

    policy = FirewallPolicy.objects.get(tenant=world.tenant_a, name="isolation")
    rule = policy.rules.get(name="intra_tenant")
    nasty = 'x" } ; flush ruleset\nadd table ip evil'
    response = api(world.owner_a).patch(f"/api/v1/firewall-rules/{rule.pk}/", {"name": nasty, "description": nasty},
                                        format="json")  # fmt: skip
    assert response.status_code == 200
    api(world.owner_a).patch(f"/api/v1/firewall-policies/{policy.pk}/", {"description": nasty}, format="json")
    for export in ("nft", "nsx"):
        text = api(world.admin).get(f"/api/v1/exports/{export}/").content.decode()
        assert "flush ruleset" not in text and "evil" not in text
