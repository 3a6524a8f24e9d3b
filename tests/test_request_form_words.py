"""The request forms start where a person expects: the lone tenant chosen, sizes filled, presets in words,
and the over-quota list beside the size fields that cause it."""

import pytest

from tenants.models import Quota
from tests.browser import login
from tests.catalog.builders import mpi_item


@pytest.mark.django_db
def test_the_catalog_request_form_preselects_the_lone_tenant_and_shows_presets_in_words(world, client):
    item = mpi_item(world.admin)
    client.force_login(world.member_a)
    page = client.get(f"/catalog/{item.pk}/").content.decode()
    assert f'<option value="{world.tenant_a.pk}" selected>' in page
    rules = page.split('id="item-rules"')[1].split("</table>")[0]
    assert "<td>Login node</td><td>yes</td>" in rules and "<td>Workers</td><td>4</td>" in rules
    assert "SR-IOV" in rules and "login_node" not in rules.replace('data-field="login_node"', "")
    assert "True" not in rules and "worker_count<" not in rules


@pytest.mark.django_db
def test_the_cluster_form_says_vcpus_per_node_and_starts_with_the_sites_sizes(world, client):
    client.force_login(world.member_a)
    page = client.get("/clusters/new/").content.decode()
    assert ">vCPUs per node</label>" in page
    for name, value in {"worker_count": 2, "vcpus_per_node": 8, "memory_gb_per_node": 32}.items():
        assert f'name="{name}" value="{value}"' in page, name


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_in_chromium_the_over_quota_list_sits_beside_the_size_fields(browser, live_server, world):
    Quota.objects.filter(tenant=world.tenant_a).update(max_nodes=10)
    member = login(browser, live_server, "member-a")
    member.set_viewport_size({"width": 1280, "height": 900})
    member.goto(f"{live_server.url}/clusters/new/")
    member.select_option("#id_workload_class", "parallel-distributed")
    member.fill("#id_worker_count", "40")
    member.press("#id_worker_count", "Tab")
    member.wait_for_selector("#quota-problems:has-text('nodes: asked 42')")
    field, problems = (
        member.locator("#id_memory_gb_per_node").bounding_box(),
        member.locator("#quota-problems").bounding_box(),
    )
    assert 0 <= problems["y"] - (field["y"] + field["height"]) < 120, (field, problems)
    member.fill("#id_worker_count", "2")
    member.press("#id_worker_count", "Tab")
    member.wait_for_selector("#quota-problems", state="detached")
