"""PIs and admins: the right banner after deciding an extension, its history row, a current hint, notices
settled once acted on, and no Approvals for members."""

import datetime

import pytest
from django.utils import timezone

from notices.choices import NoticeKind
from tenants import services
from tests.browser import login
from tests.conftest import service_data


def days(n: int) -> datetime.date:
    return timezone.localdate() + datetime.timedelta(days=n)


def live_cluster(world):
    cluster = services.create_cluster(world.tenant_a, world.member_a, service_data(), submit=True)
    return services.approve_cluster(services.endorse_cluster(cluster, world.owner_a), world.admin)


def extended(world, client, settings):
    """A member's extension past the site maximum, approved by the PI through the page; the final response."""
    cluster = live_cluster(world)
    services.request_extension(cluster, world.member_a, days(settings.LEASE_MAX_DAYS + 30), "Paper revision")
    client.force_login(world.owner_a)
    return cluster, client.post(f"/clusters/{cluster.pk}/approve-extension/", follow=True).content.decode()


@pytest.mark.django_db
def test_approving_an_extension_says_the_lease_moved_and_its_history_row_shows_the_dates(world, client, settings):
    cluster, page = extended(world, client, settings)
    new_end = days(settings.LEASE_MAX_DAYS + 30)
    assert f"Extension of {cluster} approved: the lease now ends on {new_end}." in page
    assert "is now ready" not in page and "is now approved" not in page
    row = [r for r in page.split("<tr>") if "cluster.extend_lease" in r][0]
    assert f"lease end {days(30)} → {new_end}" in row


@pytest.mark.django_db
def test_once_the_lease_is_past_the_review_free_limit_the_hint_says_so(world, client, settings):
    cluster, _ = extended(world, client, settings)
    page = client.get(f"/clusters/{cluster.pk}/").content.decode()
    assert "the lease already ends after" in page and "at once;" not in page


@pytest.mark.django_db
def test_notices_about_a_request_someone_acted_on_are_no_longer_new(world, client, settings):
    cluster = services.create_cluster(world.tenant_a, world.member_a, service_data(), submit=True)
    endorse = world.owner_a.notices.get(kind=NoticeKind.ENDORSE)
    assert endorse.read is None
    cluster = services.endorse_cluster(cluster, world.owner_a)
    endorse.refresh_from_db()
    approve = world.admin.notices.get(kind=NoticeKind.APPROVE)
    assert endorse.read is not None and approve.read is None
    services.approve_cluster(cluster, world.admin)
    approve.refresh_from_db()
    assert approve.read is not None
    services.request_extension(cluster, world.member_a, days(settings.LEASE_MAX_DAYS + 30), "Paper revision")
    asked = world.owner_a.notices.get(kind=NoticeKind.EXTENSION)
    services.decide_extension(services.pending_extension(cluster), world.admin, True)
    asked.refresh_from_db()
    assert asked.read is not None


@pytest.mark.django_db
def test_a_member_has_no_approvals_in_the_menu_and_no_endorse_section(world, client):
    client.force_login(world.member_a)
    assert 'href="/approvals/"' not in client.get("/").content.decode()
    page = client.get("/approvals/").content.decode()
    assert 'id="no-decisions"' in page and "To endorse" not in page
    client.force_login(world.owner_a)
    assert 'href="/approvals/"' in client.get("/").content.decode()
    assert "To endorse" in client.get("/approvals/").content.decode()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_in_chromium_a_pi_approves_an_extension_and_reads_where_the_lease_now_ends(browser, live_server, world,
                                                                                  settings):  # fmt: skip
    cluster = live_cluster(world)
    new_end = days(settings.LEASE_MAX_DAYS + 30)
    services.request_extension(cluster, world.member_a, new_end, "Paper revision")
    member = login(browser, live_server, "member-a")
    assert member.locator("#site-nav a:has-text('Approvals')").count() == 0
    owner = login(browser, live_server, "owner-a")
    owner.goto(f"{live_server.url}/clusters/{cluster.pk}/")
    owner.click("#approve-extension")
    owner.wait_for_selector(f".messages:has-text('the lease now ends on {new_end}')")
    assert "is now" not in owner.inner_text(".messages")
    assert f"lease end {days(30)} → {new_end}" in owner.inner_text("#history")
