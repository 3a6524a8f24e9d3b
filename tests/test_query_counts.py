"""Every list endpoint and page costs the same few queries whether it has 10 rows or 1,000."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from core.paging import PER_PAGE
from tests import bulk

pytestmark = pytest.mark.django_db

BUDGET = 20  # queries per request, at any row count (session, user, memberships, the page, counts...)
# The firewall's lint (netpolicy.findings.findings) reads each shown tenant's policy: about ten
# queries per tenant on the page (the page shows one tenant and the site; an API page up to its
# page size). Constant in the number of rows, but above the plain budget.
BUDGETS = {"firewallrule-list": 70, "netpolicy:rule-list": 60}

# route -> (seed rows, who asks, the route's arguments from the world)
LISTS = {
    # API
    "tenant-list": (bulk.tenants, ("admin", "owner_a"), None),
    "membership-list": (bulk.memberships, ("admin", "owner_a"), None),
    "quota-list": (bulk.tenants, ("admin", "owner_a"), None),
    "virtualcluster-list": (bulk.clusters, ("admin", "owner_a"), None),
    "auditevent-list": (bulk.events, ("admin", "owner_a"), None),
    "apitoken-list": (bulk.tokens, ("owner_a",), None),
    "nodepool-list": (bulk.node_pools, ("admin",), None),
    "poolsubnet-list": (bulk.node_pools, ("admin",), None),
    "node-list": (bulk.nodes, ("admin",), None),
    "jointoken-list": (bulk.nodes, ("admin",), None),
    "vcenter-list": (bulk.vsphere, ("admin",), None),
    "vsphere-host-list": (bulk.vsphere, ("admin",), None),
    "physicalfunction-list": (bulk.vsphere, ("admin",), None),
    "vfassignment-list": (bulk.vsphere, ("admin", "owner_a"), None),
    "vsphere-capacity": (bulk.vsphere, ("admin",), None),
    "pool-list": (bulk.netpolicy, ("admin", "owner_a"), None),
    "segment-list": (bulk.netpolicy, ("admin", "owner_a"), None),
    "service-list": (bulk.netpolicy, ("admin", "owner_a"), None),
    "group-list": (bulk.netpolicy, ("admin", "owner_a"), None),
    "firewallpolicy-list": (bulk.netpolicy, ("admin", "owner_a"), None),
    "firewallrule-list": (bulk.netpolicy, ("admin", "owner_a"), None),
    "pcidevice-list": (bulk.devices, ("admin",), None),
    "nsxobject-list": (bulk.nsx_objects, ("admin", "owner_a"), None),
    "nsxmanager-list": (bulk.nsx_managers, ("admin",), None),
    "vgpuprofile-list": (bulk.devices, ("admin",), None),
    "deviceassignment-list": (bulk.devices, ("admin", "owner_a"), None),
    "catalogitem-list": (bulk.catalog, ("admin", "owner_a"), None),
    "clusterorigin-list": (bulk.catalog, ("admin", "owner_a"), None),
    "webhook-list": (bulk.webhooks, ("admin", "owner_a"), None),
    "webhookdelivery-list": (bulk.webhooks, ("admin", "owner_a"), None),
    "fabric-list": (bulk.fabrics, ("admin",), None),
    "sharedport-list": (bulk.fabrics, ("admin",), None),
    "fabricjointoken-list": (bulk.fabrics, ("admin",), None),
    "partition-list": (bulk.fabrics, ("admin", "owner_a"), None),
    # Pages
    "frontend:home": (bulk.clusters, ("admin", "owner_a"), None),
    "frontend:cluster-list": (bulk.clusters, ("admin", "owner_a"), None),
    "frontend:cluster-create": (bulk.clusters, ("owner_a",), None),  # the quota panel sums the tenant's clusters
    "frontend:approvals": (bulk.clusters, ("admin", "owner_a"), None),
    "notices:preferences": (bulk.clusters, ("admin", "owner_a"), None),
    "notices:list": (bulk.notices, ("admin", "owner_a"), None),
    "identity:rule-list": (bulk.group_rules, ("admin",), None),
    "frontend:audit": (bulk.events, ("admin", "owner_a"), None),
    "frontend:tokens": (bulk.tokens, ("owner_a",), None),
    "frontend:tenant-list": (bulk.tenants, ("admin",), None),
    "frontend:tenant-detail": (bulk.memberships, ("admin",), lambda w: {"pk": w.tenant_a.pk}),
    "agents:node-list": (bulk.nodes, ("admin",), None),
    "fabrics:fabric-list": (bulk.fabrics, ("admin",), None),
    "vsphere:capacity": (bulk.vsphere, ("admin",), None),
    "vsphere:vcenter-list": (bulk.vsphere, ("admin",), None),
    "vsphere:pf-list": (bulk.vsphere, ("admin",), None),
    "vsphere:cluster-operations": (bulk.vsphere, ("admin", "owner_a"), "cluster"),
    "vsphere:devices": (bulk.devices, ("admin",), None),
    "netpolicy:segment-list": (bulk.netpolicy, ("admin", "owner_a"), None),
    "netpolicy:rule-list": (bulk.netpolicy, ("admin", "owner_a"), None),
    "netpolicy:pool-create": (bulk.netpolicy, ("admin",), None),
    "netpolicy:service-create": (bulk.netpolicy, ("admin",), None),
    "netpolicy:service-request": (bulk.netpolicy, ("admin", "owner_a"), None),
    "catalog:item-list": (bulk.catalog, ("admin", "owner_a"), None),
    "catalog:item-create": (bulk.catalog, ("admin",), None),
    "catalog:item-edit": (bulk.catalog, ("admin",), "catalog-item"),
    "webhooks:webhook-list": (bulk.webhooks, ("admin", "owner_a"), None),
    # Detail pages with rows of their own: a cluster's history, a node's tenants, a segment's nodes.
    "frontend:cluster-detail": (bulk.cluster_history, ("admin", "owner_a"), "cluster"),
    "agents:node-detail": (bulk.node_report, ("admin",), "node"),
    "fabrics:fabric-detail": (bulk.fabric_partitions, ("admin",), "fabric"),  # its tenants' partitions
    "netpolicy:segment-detail": (bulk.segment_nodes, ("admin", "owner_a"), "segment"),
    "webhooks:webhook-detail": (bulk.webhooks, ("admin", "owner_a"), "webhook"),  # its delivery log
    "catalog:item-detail": (bulk.catalog_versions, ("admin", "owner_a"), "catalog-versions"),  # its versions
}
SEEDS = sorted({seed for seed, _, _ in LISTS.values()}, key=lambda seed: seed.__name__)


def url_of(route, world, args):
    if args == "cluster":
        from tenants.models import VirtualCluster

        return reverse(route, kwargs={"pk": VirtualCluster.objects.filter(tenant=world.tenant_a).first().pk})
    if args == "node":
        from agents.models import Node

        return reverse(route, kwargs={"pk": Node.objects.get(name="reporter").pk})
    if args == "segment":
        from netpolicy.models import Segment

        return reverse(route, kwargs={"pk": Segment.objects.get(name="uvn").pk})
    if args == "catalog-item":  # the one shown to tenant A and n other tenants (bulk.catalog)
        from catalog.models import CatalogItem

        return reverse(route, kwargs={"pk": CatalogItem.objects.get(slug="bulk-1").pk})
    if args == "catalog-versions":
        from catalog.models import CatalogItem

        return reverse(route, kwargs={"pk": CatalogItem.objects.get(slug="bulk-versions").pk})
    if args == "fabric":
        from fabrics.models import Fabric

        return reverse(route, kwargs={"pk": Fabric.objects.get(name="big").pk})
    if args == "webhook":
        from webhooks.models import Webhook

        return reverse(route, kwargs={"pk": Webhook.objects.get(tenant=world.tenant_a).pk})
    return reverse(route, kwargs=args(world) if args else None)


@pytest.mark.parametrize("rows", [10, 1000])
@pytest.mark.parametrize("seed", SEEDS, ids=[seed.__name__ for seed in SEEDS])
def test_every_list_costs_the_same_queries_at_10_and_1000_rows(seed, rows, world, client,
                                                               django_assert_max_num_queries):  # fmt: skip
    seed(world, rows)  # once for every route that lists these rows, as every role that sees them
    failures = []
    for route, (route_seed, roles, args) in LISTS.items():
        if route_seed is not seed:
            continue
        url = url_of(route, world, args)
        for who in roles:
            client.force_login(getattr(world, who))
            client.get(url)  # warm per-process caches (content types, the session) out of the count
            try:
                with django_assert_max_num_queries(BUDGETS.get(route, BUDGET)):
                    response = client.get(url)
            except pytest.fail.Exception as exc:
                failures.append(f"{route} as {who}: {str(exc).splitlines()[0]}")
                continue
            if response.status_code != 200:
                failures.append(f"{route} as {who}: HTTP {response.status_code}")
    assert not failures, "\n".join(failures)


def test_every_list_route_of_the_access_matrix_is_counted():
    from tests.access import MATRIX

    lists = {name for name, (method, kind, _) in MATRIX.items() if method == "get" and kind in ("list", "admin")}
    skipped = {"netpolicy:segment-create",  # a form, not a list
               "site-settings", "netpolicy:site-settings",  # one row, the site's settings
               "me",  # the caller: one user and their memberships (tests/test_tokens.py counts them)
               "auditevent-export", "netpolicy-export-nft", "netpolicy-export-nsx",  # downloads of everything
               }  # fmt: skip
    details = {name for name in lists if name.endswith("-detail") or name.startswith("vsphere:vcenter-detail")}
    assert lists - skipped - details - set(LISTS) == set()


def queries_of(client, url) -> int:
    """Queries of one GET of the page, its per-process caches warmed by a first one."""
    client.get(url)
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured.captured_queries)


def test_the_segments_page_costs_the_same_queries_for_few_and_many_waiting_segments(world, client):
    from netpolicy.models import Segment

    bulk.netpolicy(world, 120)  # each requested by tenant A's member, listed with its requester
    segments = Segment.objects.filter(tenant=world.tenant_a).order_by("pk")
    url = reverse("netpolicy:segment-list")
    client.force_login(world.admin)
    segments.exclude(pk__in=list(segments.values_list("pk", flat=True)[:2])).update(state="approved")
    few = queries_of(client, url)
    segments.update(state="requested")  # more than a page of them waiting
    assert queries_of(client, url) == few


def test_an_items_page_costs_the_same_queries_for_few_and_many_versions(world, client):
    few, many = bulk.catalog_versions(world, 2, slug="few"), bulk.catalog_versions(world, 60, slug="many")
    client.force_login(world.admin)  # who sees the versions, with their authors and requests
    counts = [queries_of(client, reverse("catalog:item-detail", kwargs={"pk": item.pk})) for item in (few, many)]
    assert counts[0] == counts[1], counts


def test_the_cluster_admin_list_costs_the_same_queries_at_5_and_50_rows(world, client):
    root = world.admin
    root.is_superuser = True  # the Django admin lists what its user has permissions for
    root.save(update_fields=["is_superuser"])
    client.force_login(root)
    url = reverse("admin:tenants_virtualcluster_changelist")
    bulk.clusters(world, 5)
    few = queries_of(client, url)
    bulk.clusters(world, 45, tenant=world.tenant_b)  # another tenant's too: each row names its tenant
    assert queries_of(client, url) == few


def test_an_items_page_shows_one_page_of_versions_and_links_to_the_older_ones(world, client):
    item = bulk.catalog_versions(world, PER_PAGE + 5, slug="many")
    client.force_login(world.admin)
    page = client.get(reverse("catalog:item-detail", kwargs={"pk": item.pk})).content.decode()
    table = page.split('id="item-versions"', 1)[1].split("</table>", 1)[0]
    assert table.count("<tr><td>") == PER_PAGE and "?versions=2" in page
