"""The access card names each address's network, sits above the lease form, and stacks on a phone."""

import pytest

from netpolicy.models import Address, NicRole
from tenants import realizers, services
from tests.browser import login
from tests.vsphere.test_access import member_request_approved


@pytest.mark.django_db
def test_each_address_on_the_access_card_says_which_network_it_is_on(world, client, reconcile_held):
    cluster = member_request_approved(world)
    services.set_observed(services.set_observed(cluster, "provisioning"), "ready", "Realized on vSphere")
    client.force_login(world.member_a)
    page = client.get(f"/clusters/{cluster.pk}/").content.decode()
    worker = page.split("tenant-a-mpi-1-w01")[1].split("</tr>")[0]
    assert worker.count('class="vm-address"') == 2
    assert "tenant network</span>" in worker and "SR-IOV InfiniBand</span>" in worker
    assert page.index('id="cluster-access"') < page.index('id="lease"'), "access first once ready"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_on_a_390_px_phone_every_address_is_visible_without_scrolling_sideways(browser, live_server, world,
                                                                             reconcile_held):  # fmt: skip
    cluster = member_request_approved(world)
    page = login(browser, live_server, "member-a")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/clusters/{cluster.pk}/")
    page.wait_for_selector("#cluster-access")
    addresses = page.locator("#cluster-vms .vm-address code")
    assert addresses.count() == 7  # login 1, manager 2, two workers 2 each
    for i in range(addresses.count()):
        box = addresses.nth(i).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, (i, box)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.locator("#cluster-vms td[data-label=Addresses]").first.evaluate(
        "e => getComputedStyle(e).display") == "block"  # fmt: skip


@pytest.mark.django_db
def test_an_address_is_labelled_by_the_nic_it_belongs_to_not_by_its_place_in_the_list(world, reconcile_held):
    cluster = member_request_approved(world)
    Address.objects.filter(cluster=cluster, node_name="tenant-a-mpi-1-w01", nic=NicRole.PRIMARY).delete()
    view = realizers.for_cluster(cluster).observe(cluster)
    worker = next(node for node in view.nodes if node["name"] == "tenant-a-mpi-1-w01")
    assert [label for label, _ in worker["labelled"]] == ["SR-IOV InfiniBand"]
