"""Inputs that answered 500: each is a clear 4xx (or simply works) and leaves nothing half-written."""

import pytest

from netpolicy.models import FirewallPolicy, FirewallRule
from tests.netpolicy.test_netpolicy_db_segments import make_pools
from tests.security.framework import assert_nothing_changed, assert_site_compiles, state_digest

pytestmark = pytest.mark.django_db

TOP = 2**31 - 1  # the sequence columns are PostgreSQL integers


def isolation(tenant):
    return FirewallPolicy.objects.get(tenant=tenant, name="isolation")


def test_moving_a_rule_next_to_one_at_the_top_of_the_sequence_range_works(world, api, client):
    rules = list(isolation(world.tenant_a).rules.order_by("sequence"))
    last = rules[-1]
    assert (
        api(world.admin).patch(f"/api/v1/firewall-rules/{last.pk}/", {"sequence": TOP}, format="json").status_code
        == 200
    )
    client.force_login(world.owner_a)
    response = client.post(f"/network/firewall/rules/{rules[-2].pk}/move/", {"direction": "down"})
    assert response.status_code == 302
    moved = {r.pk: r.sequence for r in FirewallRule.objects.filter(pk__in=[last.pk, rules[-2].pk])}
    assert moved == {rules[-2].pk: TOP, last.pk: rules[-2].sequence}
    assert_site_compiles()


@pytest.mark.parametrize("sequence", [TOP + 1, -1, 2**64])
def test_a_sequence_outside_the_column_is_a_400(world, api, sequence):
    rule = isolation(world.tenant_a).rules.get(name="intra_tenant")
    policy = isolation(world.tenant_a)
    client = api(world.owner_a)
    before = state_digest()
    assert client.patch(f"/api/v1/firewall-rules/{rule.pk}/", {"sequence": sequence}, format="json").status_code == 400
    assert client.patch(f"/api/v1/firewall-policies/{policy.pk}/", {"sequence": sequence},
                        format="json").status_code == 400  # fmt: skip
    assert_nothing_changed(before)


def test_a_rule_form_with_a_sequence_outside_the_column_shows_an_error(world, client):
    client.force_login(world.owner_a)
    rule = isolation(world.tenant_a).rules.get(name="intra_tenant")
    before = state_digest()
    response = client.post(f"/network/firewall/rules/{rule.pk}/", {"name": "x", "sequence": TOP + 1,
                                                                   "action": "drop", "direction": "in"})  # fmt: skip
    assert response.status_code == 200 and "sequence" in response.content.decode()
    assert_nothing_changed(before)


def test_an_ipv6_subnet_in_an_ipv4_pool_is_a_400(world, api):
    _, _, v4 = make_pools(world.admin)
    before = state_digest()
    response = api(world.member_a).post("/api/v1/segments/", {"tenant": world.tenant_a.pk, "name": "s", "kind": "vlan",
                                                              "subnet": "fd00:1::/64", "prefix_pool": v4.pk},
                                        format="json")  # fmt: skip
    assert response.status_code == 400, response.content
    assert_nothing_changed(before)


def test_an_ipv6_gateway_on_an_ipv4_subnet_is_a_400(world, api):
    make_pools(world.admin)
    response = api(world.member_a).post("/api/v1/segments/", {"tenant": world.tenant_a.pk, "name": "s", "kind": "vlan",
                                                              "subnet": "10.64.9.0/24", "gateway": "fd00::1"},
                                        format="json")  # fmt: skip
    assert response.status_code == 400 and "gateway" in response.json()
