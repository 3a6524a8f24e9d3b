"""Lint findings are rendered for their reader: members learn that a rule reaches beyond their tenant, never whose.

Issue 31, item 1: a group 10.0.0.0/8 in astro and an allow rule from it into astro answered
"exposes tenant astro to genomics", and narrowing the group was a binary search for genomics' subnets.
"""

import pytest

from core.viewer_text import SITE_ADMIN, Viewer
from netpolicy import findings
from netpolicy.models import FirewallPolicy, Group, Segment, Service
from tests.netpolicy.test_netpolicy_db_segments import make_pools

pytestmark = pytest.mark.django_db
BEYOND = "addresses the site assigns to other tenants"


@pytest.fixture
def wide_rule(world, api):
    """A's segment 10.64.0.0/24, B's 10.64.1.0/24; A's group 'wide' (10.0.0.0/8) allowed into A's 'all'."""
    make_pools(world.admin)
    admin = api(world.admin)
    for tenant in (world.tenant_a, world.tenant_b):
        admin.post("/api/v1/segments/", {"tenant": tenant.pk, "name": "s", "kind": "vlan"}, format="json")
    assert sorted(Segment.objects.values_list("subnet", flat=True)) == ["10.64.0.0/24", "10.64.1.0/24"]
    owner = api(world.owner_a)
    group = owner.post("/api/v1/groups/", {"tenant": world.tenant_a.pk, "name": "wide", "cidrs": ["10.0.0.0/8"]},
                       format="json").json()  # fmt: skip
    policy = FirewallPolicy.objects.get(tenant=world.tenant_a, name="isolation")
    everyone = Group.objects.get(tenant=world.tenant_a, name="all")
    response = owner.post("/api/v1/firewall-rules/", {
        "policy": policy.pk, "name": "from-wide", "sequence": 500, "sources": [group["id"]],
        "destinations": [everyone.pk], "services": [Service.objects.get(name="ssh").pk], "action": "allow",
        "direction": "in",
    }, format="json")  # fmt: skip
    assert response.status_code == 201, response.content
    return response.json(), group["id"]


def _exposes(body) -> list[str]:
    return [f["message"] for f in body["findings"] if f["kind"] == "exposes"]


def test_a_member_reading_a_wide_rule_learns_it_reaches_other_tenants_but_not_whose(world, api, wide_rule):
    created, _ = wide_rule
    assert "tenant-b" not in str(created) and "10.64.1." not in str(created)
    for user in (world.owner_a, world.member_a):
        body = api(user).get(f"/api/v1/firewall-rules/{created['id']}/").json()
        [message] = _exposes(body)
        assert BEYOND in message and "tenant-a" in message
        assert "tenant-b" not in str(body) and "Tenant B" not in str(body) and "10.64.1." not in str(body)


def test_a_site_admin_still_reads_which_tenant_the_rule_exposes_to(world, api, wide_rule):
    created, _ = wide_rule
    [message] = _exposes(api(world.admin).get(f"/api/v1/firewall-rules/{created['id']}/").json())
    assert message.endswith("exposes tenant tenant-a to tenant-b")


def test_narrowing_the_group_is_no_oracle_for_other_tenants_subnets(world, api, wide_rule):
    """Onto B's subnet or onto unallocated space of the same pool, the member reads the same finding."""
    created, group = wide_rule
    owner = api(world.owner_a)
    answers = []
    for cidr in ("10.64.1.0/24", "10.64.7.0/24", "10.64.1.128/25", "10.64.200.0/25"):
        assert owner.patch(f"/api/v1/groups/{group}/", {"cidrs": [cidr]}, format="json").status_code == 200
        answers.append(owner.get(f"/api/v1/firewall-rules/{created['id']}/").json()["findings"])
    assert all(answer == answers[0] for answer in answers) and answers[0]


def test_a_source_within_the_tenants_own_networks_or_outside_the_pools_is_no_finding(world, api, wide_rule):
    created, group = wide_rule
    owner = api(world.owner_a)
    for cidr in ("10.64.0.0/25", "172.16.0.0/24"):
        assert owner.patch(f"/api/v1/groups/{group}/", {"cidrs": [cidr]}, format="json").status_code == 200
        assert _exposes(owner.get(f"/api/v1/firewall-rules/{created['id']}/").json()) == []


def test_the_firewall_page_and_the_rule_form_render_findings_for_the_member(world, client, wide_rule):
    created, _ = wide_rule
    client.force_login(world.member_a)
    page = client.get(f"/network/firewall/?tenant={world.tenant_a.pk}").content.decode()
    assert BEYOND in page and "tenant-b" not in page and "10.64.1." not in page


def test_findings_refuse_to_render_without_a_viewer(world, wide_rule):
    with pytest.raises(TypeError):
        findings.findings({world.tenant_a.pk})  # the reader is not optional
    mine = findings.findings({world.tenant_a.pk}, Viewer(frozenset({world.tenant_a.pk})))
    admin = findings.findings({world.tenant_a.pk}, SITE_ADMIN)
    assert mine.by_rule.keys() == admin.by_rule.keys()


def test_a_subnet_refused_for_overlapping_another_tenants_segment_does_not_say_which(world, api, wide_rule):
    """The refusal itself is unavoidable (the subnet is taken); naming the segment's subnet is not."""
    body = {"tenant": world.tenant_a.pk, "name": "probe", "kind": "vlan", "subnet": "10.64.1.0/25"}
    refused = api(world.owner_a).post("/api/v1/segments/", body, format="json")
    assert refused.status_code == 400 and "another tenant's network" in refused.content.decode()
    assert "10.64.1.0/24" not in refused.content.decode()
    own = api(world.owner_a).post("/api/v1/segments/", {**body, "subnet": "10.64.0.0/25"}, format="json")
    assert "(10.64.0.0/24)" in own.content.decode()  # its own segment it may see
    admin = api(world.admin).post("/api/v1/segments/", body, format="json")
    assert "(10.64.1.0/24)" in admin.content.decode()
