"""Debian's Chromium driven by Playwright (never a downloaded browser), shared by the browser tests."""

import os
import shutil

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]  # fmt: skip


@pytest.fixture(scope="module")
def chromium():
    """One Chromium per test module."""
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; the ORM calls here stay synchronous.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            yield browser
            browser.close()
    finally:
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


@pytest.fixture
def browser(chromium):
    """The module's Chromium; the contexts a test opened are closed after it.

    A page left open keeps polling the live server (htmx `every 3s`) for the rest of the module, each
    poll a request and a render that only take CPU from the tests still running.
    """
    yield chromium
    for context in chromium.contexts:
        context.close()


def login(browser, live_server, username):
    """A new browser context logged in as `username` (password as made by tests.conftest.make_user)."""
    page = browser.new_context().new_page()
    page.goto(f"{live_server.url}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", "pw-" + username)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    return page
