"""The htmx pages: segments with MTU warnings, rules with lint, what-if answers."""

import pytest

from netpolicy import segments
from netpolicy.models import FirewallPolicy, Group, Service
from netpolicy.rules import save_rule
from tests.netpolicy.test_netpolicy_db_segments import make_pools

pytestmark = pytest.mark.django_db


def test_the_segment_page_shows_effective_mtu_and_pool_usage(world, client):
    make_pools(world.admin)
    segments.create_segment(world.tenant_a, world.admin, {"name": "ov", "kind": "overlay", "mtu": 9000})
    client.force_login(world.member_a)
    page = client.get("/network/segments/").content.decode()
    assert "9000 (8950)" in page and "IPoIB" in page
    assert "1 of 1000" in page


def test_another_tenants_segments_are_not_listed(world, client):
    make_pools(world.admin)
    segments.create_segment(world.tenant_b, world.admin, {"name": "secret-b", "kind": "vlan"})
    client.force_login(world.owner_a)
    assert "secret-b" not in client.get("/network/segments/").content.decode()


def test_the_firewall_page_shows_lint_next_to_rules(world, client):
    every = Group.objects.get(tenant=world.tenant_a, name="all")
    policy = FirewallPolicy.objects.get(tenant=world.tenant_a, name="isolation")
    save_rule(
        world.owner_a,
        {
            "policy": policy,
            "name": "again",
            "sequence": 90,
            "action": "allow",
            "sources": [every],
            "destinations": [every],
        },
    )
    client.force_login(world.owner_a)
    page = client.get("/network/firewall/").content.decode()
    assert "again" in page and ">redundant<" in page
    assert "tenant-b/isolation" not in page and "site/site_default_deny" in page


def test_a_rule_row_names_its_groups_and_services_in_order(world, client):
    zeta = Group.objects.create(tenant=world.tenant_a, name="zeta", cidrs=["10.9.1.0/24"])
    alpha = Group.objects.create(tenant=world.tenant_a, name="alpha", cidrs=["10.9.2.0/24"])
    campus = Group.objects.create(tenant=None, name="campus", cidrs=["192.0.2.0/24"])
    policy = FirewallPolicy.objects.get(tenant=world.tenant_a, name="isolation")
    services = list(Service.objects.filter(name__in=["ssh", "slurm", "dns_udp"]))
    save_rule(
        world.admin,
        {
            "policy": policy,
            "name": "lab_in",
            "sequence": 90,
            "action": "drop",
            "sources": [zeta, campus, alpha],
            "services": services,
        },
    )
    client.force_login(world.owner_a)
    page = client.get("/network/firewall/").content.decode()
    row = page[page.index(">lab_in<") :].split("</tr>", 1)[0].replace("\n", "")
    assert "tenant-a/alpha, tenant-a/zeta, site/campus</td><td>ANY</td><td>dns_udp, slurm, ssh</td>" in row


def test_what_if_answers_in_the_page(world, client):
    client.force_login(world.admin)  # a question about no tenant's addresses: site admins only
    answer = client.post(
        "/network/firewall/what-if/",
        {"source": "192.0.2.1", "destination": "198.51.100.1", "protocol": "udp", "port": "67"},
        HTTP_HX_REQUEST="true",
    ).content.decode()
    assert "allow" in answer and "allow_dhcp" in answer
    bad = client.post("/network/firewall/what-if/", {"source": "x"}).content.decode()
    assert "source:" in bad
