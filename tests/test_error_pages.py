"""Error pages wear the site's own layout, and the home page sends members where automation starts for them."""

from django.test import RequestFactory

from core import rest

BRAND = 'class="brand"'


def test_a_page_that_does_not_exist_is_a_404_in_the_sites_layout(world, client):
    client.force_login(world.member_a)
    response = client.get("/no-such-page/")
    body = response.content.decode()
    assert response.status_code == 404 and BRAND in body and "Not found" in body and 'id="site-nav"' in body


def test_an_api_path_that_does_not_exist_stays_a_json_404(world, client):
    client.force_login(world.member_a)
    response = client.get("/api/v1/no-such-thing/")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_a_server_error_is_a_500_in_the_sites_layout_without_a_request_context(world):
    request = RequestFactory().get("/clusters/")
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        response = rest.server_error(request)
    body = response.content.decode()
    assert response.status_code == 500 and BRAND in body and "Something went wrong" in body and "boom" not in body


def test_a_member_is_sent_to_their_tokens_not_to_the_admin_only_api_docs(world, client):
    client.force_login(world.member_a)
    body = client.get("/").content.decode()
    assert "/tokens/" in body and "/api/docs/" not in body


def test_a_site_admin_still_finds_the_api_docs_on_the_home_page(world, client):
    client.force_login(world.admin)
    assert "/api/docs/" in client.get("/").content.decode()
