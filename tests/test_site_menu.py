"""The site admin's menu fits one line at 1280 px: the site's pages fold under "Site", by mouse, keyboard and phone."""

import pytest

from tests.browser import login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ITEMS = "#site-nav > a, #site-nav > .nav-group > summary, #site-nav > .who, #site-nav > .logout"


def test_at_1280_px_the_admins_menu_is_one_line_and_site_opens_by_keyboard(browser, live_server, world):
    page = login(browser, live_server, "site-admin")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{live_server.url}/clusters/")
    middles = page.locator(ITEMS).evaluate_all(
        "items => items.map(e => { const r = e.getBoundingClientRect(); return r.y + r.height / 2; })")  # fmt: skip
    assert max(middles) - min(middles) < 10, middles  # a second line would sit a whole row (32 px) lower
    assert not page.is_visible("#site-menu a:has-text('Tenants')")
    page.focus("#site-menu summary")
    page.keyboard.press("Enter")
    assert page.is_visible("#site-menu a:has-text('Tenants')")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Tenants"
    page.keyboard.press("Escape")
    assert not page.is_visible("#site-menu a:has-text('Tenants')")
    assert page.evaluate("document.activeElement.tagName") == "SUMMARY"
    page.click("#site-menu summary")
    page.click("#site-menu a:has-text('Nodes')")
    page.wait_for_url("**/nodes/**")


def test_on_a_phone_the_site_menu_opens_inside_the_main_menu(browser, live_server, world):
    page = login(browser, live_server, "site-admin")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/clusters/")
    page.click(".menu-toggle")
    page.click("#site-menu summary")
    tenants = page.locator("#site-menu a:has-text('Tenants')")
    box = tenants.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    tenants.click()
    page.wait_for_url("**/tenants/**")


def test_a_member_has_no_site_menu(browser, live_server, world):
    page = login(browser, live_server, "member-a")
    assert page.locator("#site-menu").count() == 0
