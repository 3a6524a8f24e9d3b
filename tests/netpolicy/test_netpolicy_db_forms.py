"""The network forms in the browser's place: segments, decisions, pools, rules, groups, services."""

import re

import pytest

from audit.models import AuditEvent
from netpolicy import segments
from netpolicy.models import FirewallRule, Group, Pool, Segment, Service
from tests.netpolicy.test_netpolicy_db_segments import make_pools

pytestmark = pytest.mark.django_db
LIVE = {"HTTP_HX_REQUEST": "true", "HTTP_X_ENCLAVE_VALIDATE": "1"}


def writes() -> tuple:
    """Everything a form could write; compared before and after a refused submission."""
    return (
        Segment.objects.count(),
        FirewallRule.objects.count(),
        Pool.objects.count(),
        Service.objects.count(),
        AuditEvent.objects.count(),
        list(Group.objects.order_by("pk").values_list("cidrs", flat=True)),
    )


def field_errors(html: str, field: str) -> str:
    """The text of the inline error list of one field."""
    match = re.search(rf'<ul id="err-{field}" class="errorlist"[^>]*>(.*?)</ul>', html, re.S)
    assert match, f"no error slot for {field}"
    return match.group(1)


def segment_post(world, **overrides) -> dict:
    data = {
        "tenant": world.tenant_a.pk,
        "name": "net1",
        "kind": "vlan",
        "mtu": "9000",
        "data_path": "standard",
        "vlan_id": "",
        "vni": "",
        "subnet": "",
    }
    data.update(overrides)
    return data


def login(client, user):
    client.force_login(user)
    return client


# ---------------------------------------------------------------- segments


def test_a_member_requests_a_segment_and_it_waits_for_approval(world, client):
    make_pools(world.admin)
    response = login(client, world.member_a).post(
        "/network/segments/new/", segment_post(world, kind="overlay", name="ml", node_pool="")
    )
    segment = Segment.objects.get(name="ml")
    assert response.status_code == 302 and response.url == f"/network/segments/{segment.pk}/"
    assert (segment.state, segment.vni, segment.requested_by) == ("requested", 5000, world.member_a)
    assert "Requested" in client.get(response.url).content.decode()


def test_an_admins_segment_is_approved_at_once(world, client):
    make_pools(world.admin)
    login(client, world.admin).post("/network/segments/new/", segment_post(world, vlan_id="150"))
    assert Segment.objects.get(name="net1").state == "approved"
    assert Segment.objects.get(name="net1").vlan_id == 150


def test_live_validation_shows_the_effective_mtu_and_ipoib_warning(world, client):
    make_pools(world.admin)
    before = writes()
    html = (
        login(client, world.member_a)
        .post("/network/segments/new/", segment_post(world, kind="overlay", mtu="2044"), **LIVE)
        .content.decode()
    )
    assert "guests see <strong>1994</strong>" in html
    assert "IPoIB datagram mode (2044) use at most 1994" in html
    assert "Would get VNI <strong>5000</strong>" in html and "10.64.0.0/24" in html
    assert 'hx-swap-oob="true"' in html and "<html" not in html
    assert writes() == before


def test_live_validation_without_overhead_has_no_warning_for_vlans(world, client):
    make_pools(world.admin)
    html = (
        login(client, world.member_a)
        .post("/network/segments/new/", segment_post(world, mtu="1500"), **LIVE)
        .content.decode()
    )
    assert "guests see <strong>1500</strong>" in html and "IPoIB" not in html


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("vlan_id", "0", "greater than or equal to 1"),
        ("vlan_id", "4095", "less than or equal to 4094"),
        ("vni", str(2**24), "less than or equal to 16777215"),
        ("subnet", "10.64.9.0/33", "is not a network"),
        ("subnet", "10.64.9.1/24", "has host bits set"),
        ("subnet", "192.0.2.0/24", "outside every usable address pool"),
        ("mtu", "70000", "less than or equal to 65520"),
    ],
)
def test_bad_segment_input_is_an_inline_error_and_writes_nothing(world, client, field, value, message):
    make_pools(world.admin)
    kind = "overlay" if field == "vni" else "vlan"
    before = writes()
    for extra in ({}, LIVE):
        html = (
            login(client, world.member_a)
            .post("/network/segments/new/", segment_post(world, kind=kind, **{field: value}), **extra)
            .content.decode()
        )
        assert message in field_errors(html, field)
    assert writes() == before


def test_an_overlapping_explicit_subnet_or_taken_vlan_is_refused_inline(world, client):
    make_pools(world.admin)
    segments.create_segment(
        world.tenant_b, world.admin, {"name": "b", "kind": "vlan", "vlan_id": 120, "subnet": "10.64.4.0/24"}
    )
    before = writes()
    client = login(client, world.member_a)
    html = client.post("/network/segments/new/", segment_post(world, subnet="10.64.4.128/25"))
    assert "overlaps an existing segment" in field_errors(html.content.decode(), "subnet")
    html = client.post("/network/segments/new/", segment_post(world, vlan_id="120"), **LIVE)
    assert "vlan_id 120 is already in use in pool vlans" in field_errors(html.content.decode(), "vlan_id")
    assert writes() == before


def test_an_exhausted_pool_is_named_next_to_the_id_field_while_typing(world, client):
    make_pools(world.admin, vlans=(100, 100))
    segments.create_segment(world.tenant_b, world.admin, {"name": "b", "kind": "vlan"})
    html = login(client, world.member_a).post("/network/segments/new/", segment_post(world), **LIVE).content.decode()
    assert "Pool vlans is exhausted" in field_errors(html, "vlan_id")


def test_the_segment_form_offers_only_the_users_tenants(world, client):
    make_pools(world.admin)
    client = login(client, world.member_a)
    assert "tenant-b" not in client.get("/network/segments/new/").content.decode()
    html = client.post("/network/segments/new/", segment_post(world, tenant=world.tenant_b.pk))
    assert "Select a valid choice" in field_errors(html.content.decode(), "tenant")
    assert not Segment.objects.exists()


def test_a_node_pool_is_only_for_overlays(world, client):
    from agents import services as agent_services

    make_pools(world.admin)
    pool = agent_services.create_pool("gpu-nodes")
    html = (
        login(client, world.member_a)
        .post("/network/segments/new/", segment_post(world, node_pool=pool.pk))
        .content.decode()
    )
    assert "overlay segments only" in field_errors(html, "node_pool")


def test_another_tenants_segment_page_is_a_404(world, client):
    make_pools(world.admin)
    segment = segments.create_segment(world.tenant_a, world.member_a, {"name": "a", "kind": "vlan"})
    client = login(client, world.owner_b)
    assert client.get(f"/network/segments/{segment.pk}/").status_code == 404
    assert client.post(f"/network/segments/{segment.pk}/retire/").status_code == 404
    assert client.post(f"/network/segments/{segment.pk}/reject/", {}).status_code == 404
    assert Segment.objects.get(pk=segment.pk).state == "requested"


def test_an_admin_approves_and_a_member_cannot(world, client):
    make_pools(world.admin)
    segment = segments.create_segment(world.tenant_a, world.member_a, {"name": "a", "kind": "vlan"})
    client = login(client, world.member_a)
    assert 'id="approve"' not in client.get(f"/network/segments/{segment.pk}/").content.decode()
    page = client.post(f"/network/segments/{segment.pk}/approve/", follow=True).content.decode()
    assert "Only site admins approve or reject segments." in page
    assert Segment.objects.get(pk=segment.pk).state == "requested"
    admin = login(client, world.admin)
    assert "Segments waiting for approval" in admin.get("/network/segments/").content.decode()
    assert '<span class="badge">1</span>' in admin.get("/network/segments/").content.decode()
    admin.post(f"/network/segments/{segment.pk}/approve/")
    assert Segment.objects.get(pk=segment.pk).state == "approved"


def test_a_rejection_needs_a_reason_and_keeps_it(world, client):
    make_pools(world.admin)
    segment = segments.create_segment(world.tenant_a, world.member_a, {"name": "a", "kind": "vlan"})
    client = login(client, world.admin)
    client.post(f"/network/segments/{segment.pk}/reject/", {"reason": ""})
    assert Segment.objects.get(pk=segment.pk).state == "requested"
    client.post(f"/network/segments/{segment.pk}/reject/", {"reason": "Use the shared VLAN"})
    assert Segment.objects.get(pk=segment.pk).state == "rejected"
    page = login(client, world.member_a).get(f"/network/segments/{segment.pk}/").content.decode()
    assert "requested → rejected — Use the shared VLAN" in page


def test_an_owner_retires_and_a_member_cannot(world, client):
    make_pools(world.admin)
    segment = segments.create_segment(world.tenant_a, world.admin, {"name": "a", "kind": "vlan"})
    login(client, world.member_a).post(f"/network/segments/{segment.pk}/retire/")
    assert Segment.objects.get(pk=segment.pk).state == "approved"
    login(client, world.owner_a).post(f"/network/segments/{segment.pk}/retire/")
    assert Segment.objects.get(pk=segment.pk).state == "retired"


# ---------------------------------------------------------------- pools and services


def test_an_admin_creates_a_pool_and_sees_used_and_free(world, client):
    client = login(client, world.admin)
    response = client.post(
        "/network/pools/",
        {"name": "lab-vlans", "kind": "vlan", "first": "300", "last": "309", "routing_domain": "default"},
    )
    assert response.status_code == 302 and Pool.objects.filter(name="lab-vlans").exists()
    assert "0 of 10" in client.get("/network/pools/").content.decode()


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"kind": "vlan", "first": "0", "last": "10"}, "first", "between 1 and 4094"),
        ({"kind": "vlan", "first": "4000", "last": "4095"}, "last", "between 1 and 4094"),
        ({"kind": "vni", "first": "1", "last": str(2**24)}, "last", "between 1 and 16777215"),
        ({"kind": "vlan", "first": "20", "last": "10"}, "first", "is after last"),
        ({"kind": "ipv4", "cidr": "10.0.0.0/33"}, "cidr", "is not a network"),
        ({"kind": "ipv4", "cidr": "10.0.0.1/16"}, "cidr", "has host bits set"),
        (
            {"kind": "ipv4", "cidr": "10.0.0.0/16", "default_prefix_length": "8"},
            "default_prefix_length",
            "between 16 and 32",
        ),
    ],
)
def test_bad_pool_input_is_an_inline_error_and_writes_nothing(world, client, data, field, message):
    before = writes()
    html = (
        login(client, world.admin)
        .post("/network/pools/", {"name": "p", "routing_domain": "default", **data})
        .content.decode()
    )
    assert message in field_errors(html, field)
    assert writes() == before


def test_only_site_admins_have_the_pool_and_service_pages(world, client):
    client = login(client, world.owner_a)
    assert client.get("/network/pools/").status_code == 404
    assert (
        client.post("/network/firewall/services/", {"name": "web", "protocol": "tcp", "ports": "80"}).status_code == 404
    )
    assert not Service.objects.filter(name="web").exists()


@pytest.mark.parametrize(
    ("ports", "message"),
    [
        ("70000", "port 70000 is out of range 1..65535"),
        ("0", "port 0 is out of range"),
        ("8080-8000", "port range 8080-8000 is inverted"),
    ],
)
def test_bad_ports_are_an_inline_error(world, client, ports, message):
    before = writes()
    html = (
        login(client, world.admin)
        .post("/network/firewall/services/", {"name": "web", "protocol": "tcp", "ports": ports})
        .content.decode()
    )
    assert message in field_errors(html, "ports")
    assert writes() == before


def test_an_admin_adds_a_service(world, client):
    login(client, world.admin).post(
        "/network/firewall/services/", {"name": "web", "protocol": "tcp", "ports": "80,8443-8444"}
    )
    assert Service.objects.get(name="web").ports == "80,8443-8444"
