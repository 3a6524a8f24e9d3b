"""A tenant cannot exhaust the site's pools: bounded blocks, requests counted in quota, few pending at once."""

import pytest

from netpolicy.models import Segment
from tenants import services
from tests.netpolicy.test_netpolicy_db_segments import make_pools
from tests.security.framework import assert_nothing_changed, state_digest

pytestmark = pytest.mark.django_db


def request(api, user, tenant, **body):
    return api(user).post("/api/v1/segments/", {"tenant": tenant.pk, "name": body.pop("name", "s"), "kind": "vlan",
                                                **body}, format="json")  # fmt: skip


def test_a_member_cannot_ask_for_a_slash_one(world, api):
    make_pools(world.admin)  # 10.64.0.0/16, default /24
    before = state_digest()
    for body in ({"prefix_length": 1}, {"prefix_length": 17}, {"subnet": "10.64.0.0/17"}, {"subnet": "10.64.0.0/23"}):
        response = request(api, world.member_a, world.tenant_a, **body)
        assert response.status_code == 400, (body, response.content)
        assert "at most a /24" in str(response.json())
    assert_nothing_changed(before)


def test_the_pool_sets_how_large_a_block_tenants_may_take(world, api):
    api(world.admin).post("/api/v1/pools/", {"name": "vlans", "kind": "vlan", "first": 100, "last": 199}, format="json")
    pool = api(world.admin).post("/api/v1/pools/", {"name": "v4", "kind": "ipv4", "cidr": "10.64.0.0/16",
                                                    "default_prefix_length": 24, "min_prefix_length": 22},
                                 format="json")  # fmt: skip
    assert pool.status_code == 201 and pool.json()["min_prefix_length"] == 22
    assert request(api, world.member_a, world.tenant_a, prefix_length=22).status_code == 201
    assert request(api, world.member_a, world.tenant_a, name="t", prefix_length=21).status_code == 400


def test_a_site_admin_may_carve_a_larger_block(world, api):
    make_pools(world.admin)
    response = request(api, world.admin, world.tenant_a, prefix_length=20)
    assert response.status_code == 201 and response.json()["subnet"].endswith("/20")


def test_pool_prefix_lengths_are_consistent(world, api):
    client = api(world.admin)
    bad = [{"name": "p", "kind": "ipv4", "cidr": "10.64.0.0/16", "default_prefix_length": 24, "min_prefix_length": 26},
           {"name": "p", "kind": "ipv4", "cidr": "10.64.0.0/16", "min_prefix_length": 8},
           {"name": "p", "kind": "vlan", "first": 1, "last": 9, "min_prefix_length": 24}]  # fmt: skip
    before = state_digest()
    for body in bad:
        assert client.post("/api/v1/pools/", body, format="json").status_code == 400, body
    assert_nothing_changed(before)


def test_requested_segments_count_against_the_segment_quota(world, api):
    make_pools(world.admin)
    services.update_quota(world.tenant_a.quota, max_segments=2, max_pending_segments=10)
    assert request(api, world.member_a, world.tenant_a, name="a").status_code == 201
    assert request(api, world.member_a, world.tenant_a, name="b").status_code == 201
    assert set(Segment.objects.filter(tenant=world.tenant_a).values_list("state", flat=True)) == {"requested"}
    response = request(api, world.member_a, world.tenant_a, name="c")
    assert response.status_code == 409 and "segments: 2 of 2 in use" in response.json()["quota"][0]


def test_only_a_few_segment_requests_may_await_approval(world, api):
    make_pools(world.admin)
    services.update_quota(world.tenant_a.quota, max_segments=10)
    first = request(api, world.member_a, world.tenant_a, name="a").json()
    assert request(api, world.owner_a, world.tenant_a, name="b").status_code == 201
    refused = request(api, world.member_a, world.tenant_a, name="c")
    assert refused.status_code == 409
    assert "segment requests: 2 of 2 already await approval" in refused.json()["quota"][0]
    assert request(api, world.admin, world.tenant_a, name="d").status_code == 201  # approved at once: not pending
    assert api(world.admin).post(f"/api/v1/segments/{first['id']}/approve/").status_code == 200
    assert request(api, world.member_a, world.tenant_a, name="c").status_code == 201


def test_the_pending_cap_is_part_of_the_quota(world, api):
    response = api(world.admin).patch(f"/api/v1/quotas/{world.tenant_a.quota.pk}/", {"max_pending_segments": 5},
                                      format="json")  # fmt: skip
    assert response.status_code == 200 and response.json()["max_pending_segments"] == 5
