"""A user may not belong to two tenants that share a node pool: their sessions could enter neither VRF."""

import threading
from types import SimpleNamespace

import pytest
from django.db import connection

from agents import refresh
from agents import services as agent_services
from audit.context import Actor, ActorKind, acting_as
from audit.models import AuditEvent
from netpolicy import allocation, segments
from tenants import services
from tenants.choices import Role
from tenants.models import Membership
from tests.test_agents_api import agent, enrol
from users.models import PosixAccount

pytestmark = pytest.mark.django_db


@pytest.fixture
def site(world):
    """Node pools rack-1 and rack-2; tenants A and B each with an overlay segment on rack-1."""
    rack1, rack2 = agent_services.create_pool("rack-1"), agent_services.create_pool("rack-2")
    agent_services.add_subnet(rack1, "10.10.0.0/24", 4790)
    allocation.create_pool(world.admin, {"name": "vnis", "kind": "vni", "first": 5000, "last": 5999})
    allocation.create_pool(world.admin, {"name": "v4", "kind": "ipv4", "cidr": "10.200.0.0/16",
                                         "default_prefix_length": 24})  # fmt: skip
    for tenant in (world.tenant_a, world.tenant_b):
        segments.create_segment(tenant, world.admin, {"name": "uvn", "kind": "overlay", "node_pool": rack1})
    PosixAccount.objects.create(user=world.member_b, uid=20002)
    world.rack1, world.rack2 = rack1, rack2
    return world


def _add(api, by, world, user):
    body = {"tenant": world.tenant_a.pk, "username": user.username, "role": "member"}
    return api(by).post("/api/v1/memberships/", body, format="json")


def test_an_owner_cannot_add_a_user_of_another_tenant_on_the_same_pool_and_learns_no_names(site, api):
    response = _add(api, site.owner_a, site, site.member_b)
    assert response.status_code == 400, response.content  # only a site admin adds another tenant's member
    detail = str(response.json())
    assert "a member of another tenant is added by a site admin" in detail
    assert "tenant-b" not in detail and "rack-1" not in detail
    assert not Membership.objects.filter(tenant=site.tenant_a, user=site.member_b).exists()
    assert not AuditEvent.objects.filter(action="membership.create", after__user=site.member_b.pk,
                                         tenant_id=site.tenant_a.pk).exists()  # fmt: skip


def test_a_site_admin_is_told_which_tenant_and_pool(site, api):
    response = _add(api, site.admin, site, site.member_b)
    assert response.status_code == 409
    assert "tenant-b" in response.json()["detail"] and "rack-1" in response.json()["detail"]


def test_the_admin_tenant_page_shows_the_conflict_instead_of_failing(site, client):
    client.force_login(site.admin)
    page = client.post(f"/tenants/{site.tenant_a.pk}/", {"member": "1", "username": "member-b", "role": "member"})
    assert page.status_code == 200 and "tenant-b" in page.content.decode()
    assert not Membership.objects.filter(tenant=site.tenant_a, user=site.member_b).exists()


def test_the_users_sessions_keep_entering_their_one_tenant(site, api):
    _add(api, site.admin, site, site.member_b)
    _, cred = enrol(site.rack1)
    refresh.refresh()  # what the worker does after the segments' commits
    tenants = agent(cred).get("/api/v1/agents/node-1/desired-state").json()["tenants"]
    assert {t["id"]: t["uids"] for t in tenants}[site.tenant_b.pk] == [20002]


def test_tenants_on_different_pools_may_share_a_user_and_roles_may_change(site, api, world):
    other = services.create_tenant("tenant-c", "Tenant C", owner=world.owner_a)
    segments.create_segment(other, world.admin, {"name": "uvn", "kind": "overlay", "node_pool": site.rack2})
    assert services.set_membership(other, site.member_b, Role.MEMBER)
    assert services.set_membership(site.tenant_b, site.member_b, Role.OWNER).role == Role.OWNER


def test_a_segment_that_would_put_a_shared_user_on_one_pool_twice_is_refused(site, world):
    from core.errors import Conflict

    other = services.create_tenant("tenant-c", "Tenant C", owner=world.owner_b)  # owner-b: also in tenant-b
    as_owner = Actor(kind=ActorKind.USER, request=SimpleNamespace(user=world.owner_b))
    with acting_as(as_owner), pytest.raises(Conflict, match="owner-b") as caught:
        segments.create_segment(other, world.owner_b, {"name": "uvn", "kind": "overlay", "node_pool": site.rack1})
    assert "tenant-b" not in caught.value.detail
    with pytest.raises(Conflict, match="tenant-b"):
        segments.create_segment(other, world.admin, {"name": "uvn", "kind": "overlay", "node_pool": site.rack1})
    assert not other.segments.exists()
    assert segments.create_segment(other, world.admin, {"name": "uvn", "kind": "overlay", "node_pool": site.rack2})


def test_the_segment_api_answers_409_for_the_same_conflict(site, api, world):
    other = services.create_tenant("tenant-c", "Tenant C", owner=world.owner_b)
    body = {"tenant": other.pk, "name": "uvn", "kind": "overlay", "node_pool": site.rack1.pk}
    response = api(world.owner_b).post("/api/v1/segments/", body, format="json")
    assert response.status_code == 409 and "another tenant" in response.json()["detail"]


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_additions_to_tenants_on_one_pool_let_exactly_one_through(site, make_user):
    user = make_user("racer")
    barrier, outcomes = threading.Barrier(2), []

    def add(tenant):
        barrier.wait()
        try:
            services.set_membership(tenant, user, Role.MEMBER)
            outcomes.append("ok")
        except Exception as exc:  # noqa: BLE001 - the refusal is what we count
            outcomes.append(type(exc).__name__)
        finally:
            connection.close()

    threads = [threading.Thread(target=add, args=(t,)) for t in (site.tenant_a, site.tenant_b)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(outcomes) == ["Conflict", "ok"]
    assert Membership.objects.filter(user=user).count() == 1


def test_no_signal_vetoes_a_segment_save_the_segment_service_calls_the_pool_check_itself():
    from django.db.models.signals import pre_save

    from netpolicy.models import Segment

    assert not pre_save.has_listeners(Segment)
