"""Desired state is compiled once per change and stored; a GET or a wake only reads it."""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from enclave_agent import wire
from enclave_agent.state import parse
from rest_framework.test import APIClient

from agents import desired, refresh, services
from agents.models import Node, PoolDocument, SegmentPool, TenantPart
from netpolicy import allocation, rules, segments
from netpolicy.compiler import nft
from netpolicy.ir import build_site
from netpolicy.models import FirewallPolicy
from tenants import services as tenant_services
from tenants.choices import Role
from tenants.models import Tenant
from users.models import PosixAccount

pytestmark = pytest.mark.django_db


@pytest.fixture
def site(world):
    """VNI and address pools and two node pools with two nodes each."""
    allocation.create_pool(world.admin, {"name": "vnis", "kind": "vni", "first": 5000, "last": 5999})
    allocation.create_pool(world.admin, {"name": "v4", "kind": "ipv4", "cidr": "10.200.0.0/16",
                                         "default_prefix_length": 24})  # fmt: skip
    pools, credentials = [], {}
    for p in range(2):
        pool = services.create_pool(f"rack-{p}")
        services.add_subnet(pool, f"10.{10 + p}.0.0/24", 4790)
        pools.append(pool)
        for n in range(2):
            _, raw = services.create_join_token(pool)
            interfaces = [{"name": "em1", "address": f"10.{10 + p}.0.{5 + n}/24"}]
            node, credential = services.join(raw, f"n{p}{n}", {}, interfaces)
            credentials[node.name] = credential
    return pools, credentials


def place(world, tenant, pool):
    """Put the tenant on the node pool with an (admin-approved) overlay segment."""
    return segments.create_segment(tenant, world.admin, {"name": f"uvn-{pool.name}", "kind": "overlay",
                                                         "node_pool": pool})  # fmt: skip


def get(credentials, name, etag=None):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {credentials[name]}")
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    return client.get(f"/api/v1/agents/{name}/desired-state", **headers)


def nftables_of(pool) -> str:
    return json.loads(PoolDocument.objects.get(pool=pool).nftables)


def test_a_get_reads_the_stored_document_and_compiles_nothing(site, world):
    pools, credentials = site
    place(world, world.tenant_a, pools[0])
    refresh.refresh()
    with CaptureQueriesContext(connection) as queries:
        response = get(credentials, "n00")
    assert response.status_code == 200
    tables = " ".join(q["sql"] for q in queries.captured_queries)
    assert "netpolicy_" not in tables and "tenants_" not in tables and "agents_tenantpart" not in tables
    control = ("SAVEPOINT", "RELEASE SAVEPOINT", "BEGIN", "COMMIT", "SET LOCAL")  # the heartbeat's own transaction
    statements = [q["sql"] for q in queries.captured_queries if not q["sql"].startswith(control)]
    assert len(statements) <= 5, statements  # node credential, heartbeat, node with its pool's digest, the pool's parts
    assert parse(response.json()).tenants[0].id == world.tenant_a.pk


def test_the_stored_ruleset_is_what_compiling_the_pools_tenants_gives(site, world):
    pools, _ = site
    place(world, world.tenant_a, pools[0])
    place(world, world.tenant_b, pools[0])
    place(world, world.tenant_b, pools[1])
    refresh.refresh()
    both = Tenant.objects.filter(pk__in=[world.tenant_a.pk, world.tenant_b.pk]).order_by("pk")
    assert nftables_of(pools[0]) == nft.compile_ruleset(build_site(both))
    assert nftables_of(pools[1]) == nft.compile_ruleset(build_site(both.filter(pk=world.tenant_b.pk)))


def test_a_one_tenant_change_recompiles_only_that_tenants_parts(site, world):
    pools, credentials = site
    place(world, world.tenant_a, pools[0])
    place(world, world.tenant_b, pools[0])
    refresh.refresh()
    before = {p.tenant_id: (p.digest, p.updated) for p in TenantPart.objects.all()}
    etags = {name: get(credentials, name)["ETag"] for name in credentials}
    policy = FirewallPolicy.objects.get(tenant=world.tenant_a, name="isolation")
    rule = policy.rules.get(name="intra_tenant")
    rules.save_rule(world.admin, {"enabled": False}, rule)
    assert refresh.refresh([world.tenant_a.pk])["pools"] == 1
    after = {p.tenant_id: (p.digest, p.updated) for p in TenantPart.objects.all()}
    assert after[world.tenant_b.pk] == before[world.tenant_b.pk]  # not even rewritten
    assert after[world.tenant_a.pk][0] != before[world.tenant_a.pk][0]
    changed = {name for name in credentials if get(credentials, name, etags[name]).status_code == 200}
    assert changed == {"n00", "n01"}  # only the nodes of tenant A's pool
    both = Tenant.objects.filter(pk__in=[world.tenant_a.pk, world.tenant_b.pk]).order_by("pk")
    assert nftables_of(pools[0]) == nft.compile_ruleset(build_site(both))


def test_an_unchanged_refresh_bumps_no_generation(site, world):
    pools, _ = site
    place(world, world.tenant_a, pools[0])
    refresh.refresh()
    generations = dict(Node.objects.values_list("name", "desired_generation"))
    assert refresh.refresh()["nodes"] == 0
    assert dict(Node.objects.values_list("name", "desired_generation")) == generations


def test_a_retired_segment_takes_its_tenant_off_the_pools_nodes(site, world):
    pools, credentials = site
    segment = place(world, world.tenant_a, pools[0])
    refresh.refresh()
    assert len(get(credentials, "n00").json()["tenants"]) == 1
    segments.transition_segment(segment, world.admin, "retire", "retired")
    refresh.refresh([world.tenant_a.pk])
    assert get(credentials, "n00").json()["tenants"] == [] and nftables_of(pools[0]) == ""
    assert not TenantPart.objects.exists()
    segment.refresh_from_db()
    assert segment.observed_generation == segment.generation


def test_a_user_in_two_tenants_of_one_pool_is_placed_in_neither(site, world):
    pools, credentials = site
    place(world, world.tenant_a, pools[0])
    place(world, world.tenant_b, pools[1])
    PosixAccount.objects.create(user=world.member_a, uid=30001)
    tenant_services.set_membership(world.tenant_b, world.member_a, Role.MEMBER)
    refresh.refresh()
    assert get(credentials, "n00").json()["tenants"][0]["uids"] == [30001]  # different pools: fine
    # refused by the services now (agents.conflicts); data from before that refusal still fails closed
    SegmentPool.objects.filter(segment__tenant=world.tenant_b).update(pool=pools[0])
    refresh.refresh([world.tenant_b.pk])
    assert [t["uids"] for t in get(credentials, "n00").json()["tenants"]] == [[], []]


def test_a_node_change_bumps_only_that_node(site, world):
    pools, credentials = site
    refresh.refresh()
    etags = {name: get(credentials, name)["ETag"] for name in credentials}
    node = Node.objects.get(name="n01")
    services.update_node(node, interfaces=node.interfaces + [{"name": "em2", "address": "10.10.0.99/24"}])
    changed = {name for name in credentials if get(credentials, name, etags[name]).status_code == 200}
    assert changed == {"n01"}
    underlays = get(credentials, "n01").json()["node"]["vxlans"]
    assert [u["underlay"] for u in underlays] == ["em1", "em2"]


def test_a_node_is_told_to_retry_while_its_pool_is_not_compiled_yet(site, world):
    pools, credentials = site
    PoolDocument.objects.filter(pool=pools[0]).delete()
    response = get(credentials, "n00")
    assert response.status_code == 503 and response["Retry-After"]


def test_intent_changes_bump_the_tenants_network_generation_and_a_refresh_observes_it(site, world):
    pools, _ = site
    place(world, world.tenant_a, pools[0])
    tenant = Tenant.objects.get(pk=world.tenant_a.pk)
    assert tenant.network_generation > tenant.network_observed_generation
    refresh.refresh([tenant.pk])
    tenant.refresh_from_db()
    assert tenant.network_generation == tenant.network_observed_generation
    PosixAccount.objects.create(user=world.owner_a, uid=30002)  # the one receiver left
    tenant.refresh_from_db()
    assert tenant.network_generation == tenant.network_observed_generation + 1


def test_the_wire_constants_and_schema_come_from_the_agent_package():
    assert desired.TABLE_BASE is wire.TABLE_BASE and desired.IFNAMSIZ is wire.IFNAMSIZ
    assert desired.SCHEMA_VERSION == wire.SCHEMA_VERSION and desired.CGNAT is wire.CGNAT
    fragment = desired.pool_fragment(desired.EMPTY_TENANTS, desired.EMPTY_NFTABLES)
    document = json.loads(desired.body(7, '{"name": "n", "address": "", "interfaces": []}', fragment))
    assert document == {"schema": wire.SCHEMA_VERSION, "generation": 7, "tenants": [], "nftables": "",
                        "node": {"name": "n", "address": "", "interfaces": []}}  # fmt: skip
