"""A site object's change recompiles only the tenant parts that read what changed; the stored documents
then equal what a full recompile of every tenant gives (the oracle), for every kind of site change."""

import pytest
from django.db import transaction

from agents import refresh
from agents.models import Node, PoolDocument, TenantPart
from netpolicy import policy, rules, site
from netpolicy.models import FirewallPolicy, FirewallRule, Group, Service, SiteSettings
from tests.test_desired_state import place
from tests.test_desired_state import site as node_site  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db


def stored() -> dict:
    """Everything the nodes are served, with what each tenant part was compiled against."""
    return {
        "parts": sorted(TenantPart.objects.values_list("pool_id", "tenant_id", "digest", "site_digest")),
        "pools": sorted(PoolDocument.objects.values_list("pool_id", "digest")),
        "nodes": sorted(Node.objects.values_list("pk", "desired_digest", "desired_generation")),
    }


@pytest.fixture
def placed(node_site, world):  # noqa: F811 - the fixture imported above
    """Tenants A and B on the first pool, B on the second too; a site group only A's drop rule names."""
    pools, _ = node_site
    place(world, world.tenant_a, pools[0])
    place(world, world.tenant_b, pools[0])
    place(world, world.tenant_b, pools[1])
    site.update_settings(world.admin, {"nfs_servers": ["10.99.0.5"], "dns_servers": ["10.99.0.53"]})
    campus = policy.save_group(world.admin, {"name": "campus", "cidrs": ["192.0.2.0/24"]})
    isolation = FirewallPolicy.objects.get(tenant=world.tenant_a, name="isolation")
    rules.save_rule(world.admin, {"policy": isolation, "name": "no_campus", "sequence": 50, "action": "drop",
                                  "sources": [campus], "direction": "in"})  # fmt: skip
    refresh.refresh()
    return pools


def site_rule():
    return FirewallRule.objects.filter(policy__tenant__isnull=True, enabled=True).order_by("pk").first()


def new_site_policy(admin):
    made = rules.save_policy(admin, {"name": "site_extra", "category": "infrastructure", "sequence": 5})
    rules.save_rule(admin, {"policy": made, "name": "deny_campus", "sequence": 10, "action": "drop",
                            "sources": [Group.objects.get(name="campus")], "direction": "in"})  # fmt: skip


# change, the tenants ("a", "b") whose parts it changes
CHANGES = {
    "a service's ports": (
        lambda w: policy.save_service(w.admin, {"ports": "2200-2222"}, Service.objects.get(name="ssh")),
        "",
    ),  # fmt: skip
    "a new service": (
        lambda w: policy.save_service(w.admin, {"name": "gridftp", "protocol": "tcp", "ports": "2811"}),
        "",
    ),  # fmt: skip
    "a service every tenant names, renamed": (
        lambda w: policy.save_service(w.admin, {"name": "ssh2"}, Service.objects.get(name="ssh")),
        "ab",
    ),
    "a site group's addresses, same family": (
        lambda w: policy.save_group(w.admin, {"cidrs": ["198.51.100.0/24"]}, Group.objects.get(name="campus")),
        "",
    ),
    "a site group gains IPv6": (
        lambda w: policy.save_group(
            w.admin, {"cidrs": ["192.0.2.0/24", "2001:db8:9::/48"]}, Group.objects.get(name="campus")
        ),
        "a",
    ),
    "a new site group": (lambda w: policy.save_group(w.admin, {"name": "hpc", "cidrs": ["203.0.113.0/24"]}), ""),
    "the NFS servers": (lambda w: site.update_settings(w.admin, {"nfs_servers": ["10.99.0.7"]}), ""),
    "a site rule's name": (lambda w: rules.save_rule(w.admin, {"name": "renamed"}, site_rule()), ""),
    "a new site policy": (lambda w: new_site_policy(w.admin), "ab"),
}


@pytest.mark.parametrize("change", CHANGES)
def test_a_site_change_recompiles_only_the_parts_it_changes_and_the_result_is_a_full_compile(placed, world, change):
    make, changed = CHANGES[change]
    before_parts = dict(((p, t), d) for p, t, d, _ in stored()["parts"])
    with transaction.atomic():
        make(world)
    done = refresh.refresh_site()
    tenants = {world.tenant_a.pk: "a", world.tenant_b.pk: "b"}
    after = stored()
    rewritten = {tenants[t] for p, t, d, _ in after["parts"] if before_parts[(p, t)] != d}
    assert done["tenants"] == len(changed) and rewritten <= set(changed), (done, rewritten)
    refresh.refresh(None)  # every tenant recompiled, every pool re-assembled
    assert stored() == after, "the site refresh left something a full compile changes"
    row = SiteSettings.objects.get(pk=1)
    assert row.network_observed_generation == row.network_generation


def test_a_site_change_moves_the_site_generation_not_the_tenants(placed, world):
    generations = dict(world.tenant_a.__class__.objects.values_list("pk", "network_generation"))
    before = SiteSettings.objects.get(pk=1).network_generation
    policy.save_service(world.admin, {"ports": "2200"}, Service.objects.get(name="ssh"))
    assert SiteSettings.objects.get(pk=1).network_generation == before + 1
    assert dict(world.tenant_a.__class__.objects.values_list("pk", "network_generation")) == generations


def test_a_port_change_reaches_every_pool_without_recompiling_a_tenant(placed, world):
    pools = placed
    policy.save_service(world.admin, {"ports": "2200-2222"}, Service.objects.get(name="ssh"))
    assert refresh.refresh_site()["tenants"] == 0
    for pool in pools:
        assert "2200-2222" in PoolDocument.objects.get(pool=pool).nftables


def test_a_pool_assembled_with_a_site_part_read_before_a_site_change_uses_the_new_one(placed, world):
    pools = placed
    old = refresh.sources.site_share()
    policy.save_service(world.admin, {"ports": "2200-2222"}, Service.objects.get(name="ssh"))
    refresh.assemble_pool(pools[0].pk, old)  # e.g. a tenant's refresh that read the site before
    assert "2200-2222" in PoolDocument.objects.get(pool=pools[0]).nftables


def test_parts_stored_before_site_inputs_were_recorded_are_recompiled_once(placed, world):
    TenantPart.objects.update(site_digest="")  # as after the upgrade that added them
    assert refresh.refresh_site()["tenants"] == 2
    assert refresh.refresh_site()["tenants"] == 0
