"""VM addresses in PostgreSQL: hosts of the segment only, unique, released with a cooldown; site settings."""

import datetime

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from audit.models import AuditEvent
from core.errors import Conflict
from netpolicy import allocation, ipam, segments
from netpolicy.models import Address, AddressState
from tenants import services
from tests.conftest import service_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def segment(world):
    allocation.create_pool(world.admin, {"name": "vl", "kind": "vlan", "first": 100, "last": 199})
    allocation.create_pool(world.admin, {"name": "v4", "kind": "ipv4", "cidr": "10.70.0.0/16",
                                         "default_prefix_length": 29})  # fmt: skip
    return segments.create_segment(world.tenant_a, world.admin, {"name": "net", "kind": "vlan"})


@pytest.fixture
def cluster(world):
    return services.create_cluster(world.tenant_a, world.owner_a, service_data())


def nics(*names):
    return [(name, "w", "primary") for name in names]


def test_addresses_are_the_lowest_free_hosts_never_network_gateway_or_broadcast(segment, cluster):
    assert (segment.subnet, segment.gateway) == ("10.70.0.0/29", "10.70.0.1")
    taken = ipam.reserve(cluster, segment, nics("a", "b", "c", "d", "e"))
    assert [a.address for a in taken] == ["10.70.0.2", "10.70.0.3", "10.70.0.4", "10.70.0.5", "10.70.0.6"]
    assert [a.pk for a in ipam.reserve(cluster, segment, nics("a", "b", "c", "d", "e"))] == [a.pk for a in taken]
    with pytest.raises(Conflict, match=r"10\.70\.0\.0/29\) has no free address left"):
        ipam.reserve(cluster, segment, nics("f"))
    assert AuditEvent.objects.filter(action="addresses.allocate").count() == 1


@pytest.mark.parametrize("address", ["10.70.0.0", "10.70.0.1", "10.70.0.7", "10.70.0.9", "10.71.0.2", "fd00::2"])
def test_the_database_refuses_an_address_that_is_not_a_usable_host_of_the_subnet(segment, cluster, address):
    with pytest.raises(IntegrityError), transaction.atomic():
        Address.objects.create(segment=segment, address=address, cluster=cluster, node_name="x")


def test_the_database_refuses_one_address_twice_in_a_segment(segment, cluster):
    Address.objects.create(segment=segment, address="10.70.0.2", cluster=cluster, node_name="x")
    with pytest.raises(IntegrityError), transaction.atomic():
        Address.objects.create(segment=segment, address="10.70.0.2", cluster=cluster, node_name="y")


def test_a_released_address_cools_down_before_anyone_gets_it_again(segment, cluster, world):
    ipam.reserve(cluster, segment, nics("a", "b"))
    assert ipam.release(cluster, keep=nics("b")) == 1
    cooling = Address.objects.get(node_name="a")
    assert cooling.state == AddressState.COOLING and cooling.released_at is not None
    other = services.create_cluster(world.tenant_a, world.owner_a, service_data(name="other"))
    assert [a.address for a in ipam.reserve(other, segment, nics("c"))] == ["10.70.0.4"]
    Address.objects.filter(pk=cooling.pk).update(released_at=timezone.now() - datetime.timedelta(hours=2))
    assert [a.address for a in ipam.reserve(other, segment, nics("c", "d"))][1] == "10.70.0.2"


def test_site_servers_and_excluded_underlay_addresses_are_never_handed_out(segment, cluster, world):
    from netpolicy import site

    site.update_settings(world.admin, {"dns_servers": ["10.70.0.2"], "nfs_servers": ["10.70.0.3/32"]})
    taken = ipam.reserve(cluster, segment, nics("a"), exclude={"10.70.0.4"})
    assert [a.address for a in taken] == ["10.70.0.5"]


# ---------------------------------------------------------------- site settings API

GOOD = {"dns_servers": ["10.0.0.53", "2001:db8::53"], "dns_domain": "hpc.example.edu", "ntp_servers": ["10.0.0.123"],
        "nfs_servers": ["10.0.1.0/24", "10.0.2.5"], "address_cooldown_minutes": 30}  # fmt: skip


def test_site_admins_change_the_site_settings_and_the_change_is_audited(world, api):
    response = api(world.admin).put("/api/v1/site-settings/", GOOD, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["nfs_servers"] == ["10.0.1.0/24", "10.0.2.5"]
    event = AuditEvent.objects.get(action="site_settings.update")
    assert event.before["dns_servers"] == [] and event.after["dns_servers"] == GOOD["dns_servers"]
    assert api(world.member_b).get("/api/v1/site-settings/").json()["dns_domain"] == "hpc.example.edu"


def test_owners_and_members_cannot_change_the_site_settings(world, api):
    for user in (world.owner_a, world.member_a):
        response = api(user).patch("/api/v1/site-settings/", {"dns_servers": ["10.6.6.6"]}, format="json")
        assert response.status_code == 403
    assert not AuditEvent.objects.filter(action="site_settings.update").exists()


HOSTILE = [
    ("dns_servers", ["10.0.0.53; rm -rf /"]),
    ("dns_servers", ["10.0.0.0/24"]),
    ("dns_servers", ["0.0.0.0"]),  # noqa: S104 (a hostile value, refused)
    ("dns_servers", ["224.0.0.1"]),
    ("dns_servers", ["10.0.0.1", "10.0.0.1"]),
    ("dns_servers", [f"10.0.0.{i}" for i in range(17)]),
    ("ntp_servers", ["pool.ntp.org"]),
    ("nfs_servers", ["10.0.1.1/24"]),
    ("nfs_servers", ["10.0.1.0/33"]),
    ("nfs_servers", ["0.0.0.0/0"]),
    ("nfs_servers", ["::/0"]),
    ("dns_domain", "hpc example"),
    ("dns_domain", "a" * 64 + ".edu"),
    ("dns_domain", "evil.edu\nnameserver 6.6.6.6"),
    ("address_cooldown_minutes", -1),
    ("address_cooldown_minutes", 10**9),
]


@pytest.mark.parametrize("field,value", HOSTILE)
def test_hostile_site_settings_are_refused_with_a_field_error_and_change_nothing(make_user, api, field, value):
    admin = make_user("site-admin", staff=True)  # no tenants needed: keeps the 16 cases quick
    response = api(admin).patch("/api/v1/site-settings/", {field: value}, format="json")
    assert response.status_code == 400 and field in response.json(), response.json()
    assert ipam.site_settings().dns_servers == [] and ipam.site_settings().dns_domain == ""


def test_site_admins_change_the_settings_on_the_page_and_errors_come_back_on_the_field(world, client):
    client.force_login(world.admin)
    form = {
        "dns_servers": "10.0.0.53\n8.8.8.8/24",
        "dns_domain": "",
        "ntp_servers": "",
        "nfs_servers": "",
        "address_cooldown_minutes": 60,
    }
    bad = client.post("/network/site/", form).content.decode()
    assert "is not an address" in bad and ipam.site_settings().dns_servers == []
    saved = client.post("/network/site/", {"dns_servers": "10.0.0.53\n10.0.0.54", "dns_domain": "hpc.example.edu",
                                           "ntp_servers": "10.0.0.123", "nfs_servers": "10.0.1.0/28",
                                           "address_cooldown_minutes": 15})  # fmt: skip
    assert saved.status_code == 302
    assert ipam.site_settings().dns_servers == ["10.0.0.53", "10.0.0.54"]
    assert "10.0.1.0/28" in client.get("/network/site/").content.decode()
    client.force_login(world.owner_a)
    assert client.get("/network/site/").status_code == 404
