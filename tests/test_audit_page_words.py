"""The audit page: a tenant filter among the reader's tenants, a newest-first CSV with tenant slugs, and
diffs that name what a foreign key points to, in a constant number of queries."""

import csv
import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tenants import services
from tests.browser import login
from tests.conftest import service_data

pytestmark = pytest.mark.django_db


def endorsed(world, name="mpi-1"):
    cluster = services.create_cluster(world.tenant_a, world.member_a, service_data(name=name), submit=True)
    return services.endorse_cluster(cluster, world.owner_a)


def test_the_tenant_filter_offers_only_the_readers_tenants_and_filters_by_them(world, client):
    endorsed(world)
    services.create_cluster(world.tenant_b, world.member_b, service_data(name="other"), submit=True)
    client.force_login(world.owner_a)
    page = client.get("/audit/").content.decode()
    select = page.split('<select id="id_tenant"')[1].split("</select>")[0]
    assert ">tenant-a</option>" in select and "tenant-b" not in select
    client.force_login(world.admin)
    filtered = client.get(f"/audit/?tenant={world.tenant_b.pk}").content.decode()
    assert "tenant-b/other" in filtered and "tenant-a/mpi-1" not in filtered


def test_the_csv_export_is_newest_first_and_names_the_tenant_by_slug(world, client):
    endorsed(world)
    client.force_login(world.owner_a)
    response = client.get("/audit/?export=csv")
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert [r["created"] for r in rows] == sorted((r["created"] for r in rows), reverse=True)
    assert rows[0]["action"] == "cluster.endorse" and {r["tenant"] for r in rows} == {"tenant-a"}


def test_a_diff_names_foreign_keys_and_costs_the_same_queries_for_one_or_many_events(world, client):
    endorsed(world)
    client.force_login(world.owner_a)
    with CaptureQueriesContext(connection) as one:
        page = client.get("/audit/?action=cluster.endorse").content.decode()
    assert "<code>owner-a</code>" in page  # endorsed_by by name, not by id
    assert f"<code>{world.owner_a.pk}</code>" not in page.split("endorsed_by")[1].split("</tr>")[0]
    for i in range(2):
        endorsed(world, name=f"run-{i}")
    with CaptureQueriesContext(connection) as many:
        client.get("/audit/?action=cluster.endorse")
    assert len(many.captured_queries) == len(one.captured_queries)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_in_chromium_an_admin_picks_a_tenant_and_the_table_follows(browser, live_server, world):
    endorsed(world)
    services.create_cluster(world.tenant_b, world.member_b, service_data(name="other"), submit=True)
    admin = login(browser, live_server, "site-admin")
    admin.goto(f"{live_server.url}/audit/")
    admin.select_option("#id_tenant", label="tenant-b")
    admin.wait_for_selector("#audit-table:has-text('tenant-b/other')")
    admin.wait_for_selector("#audit-table:has-text('tenant-a/mpi-1')", state="detached")
    assert "tenant=" in admin.get_attribute("#audit-export a", "href")
