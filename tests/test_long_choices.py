"""A choice among more tenants than a select holds is typed as slugs; small lists stay selects."""

import re

import pytest

from catalog.models import CatalogItem
from core import widgets
from netpolicy.models import Pool, Segment
from tenants.models import Tenant
from tests.catalog.test_catalog_pages import rule_form
from tests.netpolicy.test_netpolicy_db_forms import field_errors, segment_post, writes
from tests.netpolicy.test_netpolicy_db_segments import make_pools

pytestmark = pytest.mark.django_db
POOL = {"name": "astro-vlans", "kind": "vlan", "first": "300", "last": "309", "routing_domain": "default"}
PAGES = ["/network/pools/", "/network/segments/new/", "/clusters/new/", "/catalog/new/"]


@pytest.fixture
def long_list(monkeypatch):
    monkeypatch.setattr(widgets, "LONG_LIST", 1)  # the world's two tenants are then "more than a select holds"


def _tenant_input(html: str, name: str = "tenant") -> str:
    match = re.search(rf'<(input|select)[^>]*name="{name}"[^>]*>', html)
    assert match, f"no {name} field"
    return match.group(0)


@pytest.mark.parametrize("path", PAGES)
def test_a_site_admin_types_tenant_slugs_on_every_form_once_the_site_has_many(world, client, long_list, path):
    client.force_login(world.admin)
    html = client.get(path).content.decode()
    field = _tenant_input(html, "tenants" if path == "/catalog/new/" else "tenant")
    assert field.startswith("<input") and 'type="text"' in field and "slug" in field
    assert f">{world.tenant_b.slug}</option>" not in html  # no option per tenant


def test_past_two_hundred_tenants_the_admins_choice_is_a_slug_box_at_their_real_number(world, client):
    Tenant.objects.bulk_create([Tenant(slug=f"lab-{i}", name=f"Lab {i}") for i in range(widgets.LONG_LIST - 2)])
    client.force_login(world.admin)
    assert _tenant_input(client.get("/network/pools/").content.decode()).startswith("<select")  # 200 with A and B
    Tenant.objects.create(slug="lab-last", name="Lab last")
    assert _tenant_input(client.get("/network/pools/").content.decode()).startswith("<input")  # 201


@pytest.mark.parametrize("path", PAGES)
def test_a_small_site_keeps_the_select(world, client, path):
    client.force_login(world.admin)
    html = client.get(path).content.decode()
    assert _tenant_input(html, "tenants" if path == "/catalog/new/" else "tenant").startswith("<select")


def test_a_researcher_with_one_tenant_keeps_the_select_on_a_large_site(world, client, long_list):
    client.force_login(world.member_a)
    assert _tenant_input(client.get("/network/segments/new/").content.decode()).startswith("<select")


def test_an_admin_gives_a_pool_to_a_tenant_by_its_slug(world, client, long_list):
    client.force_login(world.admin)
    response = client.post("/network/pools/", {**POOL, "tenant": world.tenant_a.slug})
    assert response.status_code == 302 and Pool.objects.get(name="astro-vlans").tenant == world.tenant_a


def test_a_slug_no_tenant_has_is_an_inline_error_keeps_what_was_typed_and_writes_nothing(world, client, long_list):
    client.force_login(world.admin)
    before = writes()
    html = client.post("/network/pools/", {**POOL, "tenant": "no-such-lab"}).content.decode()
    assert "No tenant you may choose has this slug." in field_errors(html, "tenant")
    assert 'value="no-such-lab"' in html
    assert writes() == before


def test_an_admin_requests_a_segment_for_a_tenant_by_its_slug(world, client, long_list):
    make_pools(world.admin)
    client.force_login(world.admin)
    response = client.post("/network/segments/new/", segment_post(world, tenant=world.tenant_b.slug, vlan_id="150"))
    assert response.status_code == 302 and Segment.objects.get(name="net1").tenant == world.tenant_b


def test_an_items_tenants_are_typed_as_comma_separated_slugs(world, client, long_list):
    client.force_login(world.admin)
    slugs = f"{world.tenant_a.slug}, {world.tenant_b.slug}"
    response = client.post("/catalog/new/", rule_form(visibility="tenants", tenants=slugs))
    assert response.status_code == 302, response.content.decode()[:2000]
    item = CatalogItem.objects.get(slug="bert")
    assert set(item.tenants.all()) == {world.tenant_a, world.tenant_b}
    assert f'value="{slugs}"' in client.get(f"/catalog/{item.pk}/edit/").content.decode()
    refused = client.post("/catalog/new/", rule_form(slug="other", visibility="tenants", tenants="tenant-a, nope"))
    assert "No tenant you may choose has the slug nope." in refused.content.decode()
    assert not CatalogItem.objects.filter(slug="other").exists()


def test_another_tenants_slug_is_refused_like_its_id_and_writes_nothing(world, client, monkeypatch):
    monkeypatch.setattr(widgets, "LONG_LIST", 0)  # even the owner of one tenant types its slug
    make_pools(world.admin)
    client.force_login(world.owner_b)
    before = writes()
    html = client.post("/network/segments/new/", segment_post(world, tenant=world.tenant_a.slug)).content.decode()
    assert "No tenant you may choose has this slug." in field_errors(html, "tenant")
    assert writes() == before
    mine = client.post("/network/segments/new/", segment_post(world, tenant=world.tenant_b.slug))
    assert mine.status_code == 302 and Segment.objects.get(name="net1").tenant == world.tenant_b
