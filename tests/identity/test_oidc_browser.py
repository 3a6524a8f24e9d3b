"""In Debian's Chromium: signing in through the OpenID provider's own pages, a silent session refresh
that follows a group change, and a logout that ends the provider's session too."""

import time

import pytest

from tenants.choices import MembershipSource, Role
from tenants.models import Membership

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def role(username):
    row = Membership.objects.filter(user__username=username).values_list("role", "source").first()
    return tuple(row) if row else None


def provider_sign_in(page, live_server, user, password):
    page.goto(f"{live_server.url}/login/")
    page.click("text=Sign in with Test University")
    page.fill("input[name=login]", user)  # the provider's own page
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")


def test_a_member_signs_in_through_the_provider_and_a_group_change_follows_silently(
    browser, live_server, sso, oidc_provider, settings
):
    settings.OIDC_RENEW_ID_TOKEN_EXPIRY_SECONDS = 3  # a page after 3 s goes back to the provider (prompt=none)
    page = browser.new_context().new_page()
    provider_sign_in(page, live_server, "oscar", "oscar-pass")
    assert role("oscar") == (Role.MEMBER, MembershipSource.DIRECTORY)
    assert "astro" in page.content()
    oidc_provider.set_groups("oscar", ["hpc-astro-pi"])
    try:
        time.sleep(3.5)
        page.goto(f"{live_server.url}/clusters/")  # silently via the provider and the callback: no login page
        page.wait_for_url(f"{live_server.url}/clusters/")
        assert role("oscar") == (Role.OWNER, MembershipSource.DIRECTORY)
    finally:
        oidc_provider.set_groups("oscar", ["hpc-astro"])


def test_logging_out_ends_the_providers_session_too(browser, live_server, sso):
    page = browser.new_context().new_page()
    provider_sign_in(page, live_server, "olga", "olga-pass")
    page.click("text=Log out")
    page.wait_for_load_state()
    assert page.url.startswith(sso_issuer())  # the provider asks to confirm its own logout
    page.click("text=Yes, sign me out")
    page.wait_for_url(f"{live_server.url}/login/**")
    page.click("text=Sign in with Test University")
    assert page.locator("input[name=password]").count() == 1  # asked for the password again


def sso_issuer() -> str:
    from django.conf import settings

    return settings.OIDC_OP_AUTHORIZATION_ENDPOINT.rsplit("/", 1)[0]
