"""What every page pays for: memberships read once per request, waiting counts from their own indexes."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from netpolicy.choices import SegmentState
from tenants import services
from tenants.access import memberships_read_once, tenant_ids
from tenants.choices import Role
from tenants.models import Membership
from tests import bulk

pytestmark = pytest.mark.django_db

WAITING_INDEXES = {"tenants_virtualcluster": "cluster_waiting_idx", "netpolicy_segment": "segment_requested_idx"}


def _membership_reads(queries) -> int:
    return sum(1 for q in queries if 'FROM "tenants_membership"' in q["sql"])


@pytest.mark.parametrize("page", ["frontend:home", "frontend:approvals", "netpolicy:rule-list", "frontend:audit"])
def test_a_page_reads_the_owners_memberships_at_most_once_per_role(client, world, page):
    client.force_login(world.owner_a)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse(page)).status_code == 200
    assert _membership_reads(queries) <= 2  # any role, and as owner (navigation counts, approvals)


def test_the_next_request_reads_memberships_afresh(client, world):
    client.force_login(world.member_b)
    page = reverse("netpolicy:rule-list") + f"?tenant={world.tenant_a.pk}"
    assert client.get(page).status_code == 404
    services.set_membership(world.tenant_a, world.member_b, Role.MEMBER)
    assert client.get(page).status_code == 200


def test_a_membership_changed_within_a_request_is_seen_at_once(world):
    with memberships_read_once():
        assert world.tenant_b.pk not in tenant_ids(world.member_a)
        services.set_membership(world.tenant_b, world.member_a, Role.OWNER)
        assert world.tenant_b.pk in tenant_ids(world.member_a, Role.OWNER)
        services.remove_membership(Membership.objects.get(tenant=world.tenant_b, user=world.member_a))
        assert world.tenant_b.pk not in tenant_ids(world.member_a)
        assert world.tenant_b.pk not in tenant_ids(world.member_a, Role.OWNER)


def test_outside_a_request_every_call_reads_the_database(world):
    assert world.tenant_b.pk not in tenant_ids(world.member_a)
    Membership.objects.create(tenant=world.tenant_b, user=world.member_a, role=Role.MEMBER)  # not via a service
    assert world.tenant_b.pk in tenant_ids(world.member_a)


def test_remembered_answers_cannot_be_changed_by_a_caller(world):
    with memberships_read_once():
        tenant_ids(world.owner_a).add(world.tenant_b.pk)
        assert tenant_ids(world.owner_a) == {world.tenant_a.pk}


def test_the_navigation_counts_of_waiting_requests_use_the_waiting_rows_indexes(client, world):
    """A few requests among thousands of clusters and segments: counted without a scan of them all."""
    client.force_login(world.admin)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("frontend:approvals")).status_code == 200
    # Rows in other states too: in a nearly empty table every index that may serve costs the same, and the
    # planner's pick among them followed whatever earlier tests had left in the indexes' files.
    bulk.netpolicy(world, 200)
    bulk.clusters(world, 200, tenant=world.tenant_b).update(state="ready")  # rows the waiting index leaves out
    plans = {}
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")  # small test tables: show whether the index can serve
        for query in queries:
            sql = query["sql"]
            table = next((t for t in WAITING_INDEXES if f'FROM "{t}"' in sql), None)
            if table and sql.startswith("SELECT COUNT(*)") and "state" in sql:
                cursor.execute("EXPLAIN " + sql)
                plans.setdefault(table, []).append("\n".join(row[0] for row in cursor.fetchall()))
    assert set(plans) == set(WAITING_INDEXES), plans.keys()
    for table, found in plans.items():
        assert all(WAITING_INDEXES[table] in plan for plan in found), (table, found)
    assert SegmentState.REQUESTED in str(plans["netpolicy_segment"])
