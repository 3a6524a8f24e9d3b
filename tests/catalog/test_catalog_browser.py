"""In Debian's Chromium: a researcher finds an item in the catalog, requests from it within its bounds."""

import datetime

import pytest

from tenants.models import VirtualCluster
from tests.browser import login
from tests.catalog.builders import mpi_item

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_researcher_requests_a_cluster_from_a_catalog_item(browser, live_server, world, tmp_path):
    mpi_item(world.admin)
    hidden = mpi_item(world.admin, slug="b-only", name="B only", visibility="tenants", tenants=[world.tenant_b])
    page = login(browser, live_server, "member-a")
    page.click("header a:has-text('Catalog')")
    page.wait_for_selector(".catalog-item[data-slug=mpi-gromacs]")
    assert page.locator(f".catalog-item[data-slug={hidden.slug}]").count() == 0
    page.click("a:has-text('MPI cluster (GROMACS, SR-IOV IB)')")
    page.wait_for_selector("#item-description:has-text('within about 8% of bare metal')")
    assert page.locator("#item-rules tr[data-field=vcpus_per_node]").inner_text().endswith("fixed")
    page.select_option("#id_tenant", label="tenant-a")
    page.fill("#id_name", "md-run")
    page.fill("#id_worker_count", "99")
    page.fill("#id_lease_end", (datetime.date.today() + datetime.timedelta(days=20)).isoformat())
    page.fill("#id_justification", "Membrane simulations")
    page.click("button[name=submit]")
    # the browser's own check or the server's: 99 is beyond the item's 2..16
    assert page.locator("#id_worker_count").evaluate("e => !e.checkValidity()")
    page.fill("#id_worker_count", "6")
    page.select_option("#id_interconnect", "pvrdma")
    page.click("button[name=submit]")
    page.wait_for_selector("#cluster-state:has-text('Submitted')")
    page.wait_for_selector("#cluster-origin:has-text('version 1')")
    page.screenshot(path=str(tmp_path / "from-catalog.png"))
    cluster = VirtualCluster.objects.get(name="md-run")
    assert (cluster.worker_count, cluster.interconnect, cluster.vcpus_per_node) == (6, "pvrdma", 16)
