"""In Debian's Chromium: every page passes axe-core (no violation of any impact, minor included) for each role,
fits a 390 px phone, and a form with errors announces them and moves focus to the first one.

The pages are the access matrix's page routes (tests/access.py), on the objects it seeds
(tests/test_access_matrix.Objects), so a new page is checked as soon as it has its matrix entry.
"""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from tenants import services
from tenants.choices import ClusterState
from tests.access import MATRIX
from tests.browser import login
from tests.conftest import service_data
from tests.test_access_matrix import Objects, url_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = "node_modules/axe-core/axe.min.js"  # npm dev package (package.json), installed by `make bootstrap`
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
# Which kinds of page route each role opens with a 200 (tests/test_access_matrix.expected).
KINDS = {"member_a": {"list", "detail"}, "owner_a": {"list", "detail", "action"},
         "admin": {"list", "detail", "action", "admin"}}  # fmt: skip


def page_urls(objects, role: str) -> list[str]:
    """The GET page routes (not the API) that `role` may open, plus the extra states seeded below."""
    urls = []
    for name, (method, kind, attr) in sorted(MATRIX.items()):
        if method == "get" and ":" in name and kind in KINDS[role]:
            urls.append(url_for(name, getattr(objects, attr) if attr else None))
    ready = reverse("frontend:cluster-detail", kwargs={"pk": objects.ready_cluster.pk})
    return urls + [ready, reverse("frontend:audit") + "?actor_kind=user"]


def seed_ready_cluster(objects):
    """A second cluster of tenant A, approved and observed ready: its page shows resize and lease forms."""
    world = objects.world
    lease = (timezone.localdate() + datetime.timedelta(days=20)).isoformat()
    cluster = services.create_cluster(world.tenant_a, world.member_a, service_data(name="ready-1", lease_end=lease),
                                      submit=True)  # fmt: skip
    cluster = services.endorse_cluster(cluster, world.owner_a)
    cluster = services.approve_cluster(cluster, world.admin)
    cluster = services.set_observed(cluster, ClusterState.PROVISIONING, "Reconciling")
    objects.ready_cluster = services.set_observed(cluster, ClusterState.READY, "Ready",
                                                  observed_generation=cluster.generation)  # fmt: skip


@pytest.fixture
def objects(world):
    objects = Objects(world)
    seed_ready_cluster(objects)
    return objects


def axe_problems(page, url: str, phone: bool) -> list[str]:
    """axe-core's violations on the page, minor ones included (tap-target size checked on a phone)."""
    page.add_script_tag(path=AXE)
    options = {"rules": {"target-size": {"enabled": phone}}, "resultTypes": ["violations"], "reporter": "no-passes"}
    result = page.evaluate("options => axe.run(document, options)", options)
    return [f"{url} [{v['impact']}] {v['id']}: {v['help']} — {[n['target'] for n in v['nodes']][:5]}"
            for v in result["violations"]]  # fmt: skip


def overflow(page, url: str) -> list[str]:
    """The page is wider than the phone's viewport (something forces a horizontal scroll)."""
    width = page.evaluate("document.documentElement.scrollWidth")
    if width <= PHONE["width"]:
        return []
    wide = page.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter(e => e.getBoundingClientRect().right > innerWidth + 1 && !e.closest('.table-scroll, pre'))
        .slice(0, 4).map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + '.' + e.className)""")
    return [f"{url} is {width} px wide at {PHONE['width']} px: {wide}"]


def check_pages(page, live_server, urls: list[str], phone: bool) -> list[str]:
    """Open each page (one browser context, already logged in) and collect what fails."""
    problems = []
    for url in urls:
        response = page.goto(live_server.url + url, wait_until="domcontentloaded")
        if response.status != 200:
            problems.append(f"{url}: HTTP {response.status}")
            continue
        problems += axe_problems(page, url, phone)
        if phone:
            problems += overflow(page, url)
    return problems


@pytest.mark.parametrize(
    ("role", "username", "viewport"),
    [
        ("member_a", "member-a", DESKTOP),
        ("owner_a", "owner-a", DESKTOP),
        ("admin", "site-admin", PHONE),  # the admin sees every page and the longest menu: on a phone
    ],
)
def test_every_page_passes_axe_core_and_the_admins_fit_a_390_px_phone(browser, live_server, objects, role,
                                                                       username, viewport):  # fmt: skip
    """One login per role, then every page that role may open, in a loop (and the login page)."""
    problems = []
    if role == "admin":
        anonymous = browser.new_page(viewport=PHONE)
        problems += check_pages(anonymous, live_server, ["/login/"], phone=True)
        anonymous.close()
    page = login(browser, live_server, username)
    page.set_viewport_size(viewport)
    problems += check_pages(page, live_server, page_urls(objects, role), phone=viewport is PHONE)
    page.context.close()
    assert not problems, "\n".join(problems)


def test_on_a_phone_the_menu_opens_and_log_out_is_reachable(browser, live_server, world):
    page = login(browser, live_server, "site-admin")
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/clusters/")
    assert not page.is_visible("#site-nav") and page.get_attribute(".menu-toggle", "aria-expanded") == "false"
    page.click(".menu-toggle")
    assert page.get_attribute(".menu-toggle", "aria-expanded") == "true"
    log_out = page.locator("#site-nav button:has-text('Log out')")
    box = log_out.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] and box["height"] >= 24
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    log_out.click()
    page.wait_for_url("**/login/**")


def test_form_errors_are_announced_tied_to_their_field_and_focused_first(browser, live_server, world):
    page = login(browser, live_server, "member-a")
    page.goto(f"{live_server.url}/clusters/new/")
    # A live check (htmx) marks the field invalid, describes it by its error and reads the error out.
    page.fill("#id_name", "Not_DNS!")
    page.press("#id_name", "Tab")
    page.wait_for_selector("#err-name li")
    assert page.get_attribute("#id_name", "aria-invalid") == "true"
    assert "err-name" in page.get_attribute("#id_name", "aria-describedby")
    page.wait_for_function("document.getElementById('live-status').textContent.includes('lowercase')")
    assert page.evaluate("document.activeElement.id") != "id_name"  # a live check never moves focus
    # A submitted form with errors comes back with focus on its first invalid field.
    page.fill("#id_worker_count", "")
    page.click("button[name=submit]")
    page.wait_for_load_state("load")
    first_invalid = page.evaluate("document.querySelector('main [aria-invalid=true]').id")
    assert first_invalid and page.evaluate("document.activeElement.id") == first_invalid


def test_a_state_change_seen_by_polling_is_announced(browser, live_server, world):
    lease = (timezone.localdate() + datetime.timedelta(days=20)).isoformat()
    cluster = services.create_cluster(world.tenant_a, world.member_a, service_data(lease_end=lease), submit=True)
    cluster = services.approve_cluster(services.endorse_cluster(cluster, world.owner_a), world.admin)
    page = login(browser, live_server, "member-a")
    page.goto(f"{live_server.url}/clusters/{cluster.pk}/")
    page.wait_for_selector("#cluster-state:has-text('Approved')")
    services.set_observed(cluster, ClusterState.PROVISIONING, "Reconciling")
    page.wait_for_function("document.getElementById('live-status').textContent.includes('Provisioning')",
                           timeout=15000)  # fmt: skip
