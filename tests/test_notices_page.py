"""/notices/: the user's own notices, read and unread, paged, each one marked read with one click."""

import pytest

from notices.models import Notice
from tests.browser import login


def notices_of(user, n, read_every=0):
    from django.utils import timezone

    Notice.objects.bulk_create([
        Notice(user=user, kind="cluster", subject=f"tenant-a/c{i} submitted", url="/clusters/",
               read=timezone.now() if read_every and i % read_every == 0 else None)
        for i in range(n)
    ])  # fmt: skip


@pytest.mark.django_db
def test_the_notices_page_lists_only_the_users_own_filters_read_and_unread_and_pages(world, client):
    notices_of(world.owner_a, 60, read_every=3)
    notices_of(world.owner_b, 1)
    client.force_login(world.owner_a)
    page = client.get("/notices/").content.decode()
    assert page.count('<tr id="notice-') == 50 and 'rel="next"' in page and "40 unread" in page
    unread = client.get("/notices/?show=unread").content.decode()
    assert unread.count('<tr id="notice-') == 40 and "Mark read" in unread
    assert 'href="?show=unread&amp;page=2"' not in unread  # 40 fit one page
    read = client.get("/notices/?show=read").content.decode()
    assert read.count('<tr id="notice-') == 20 and "Mark read" not in read
    assert 'name="show" value="unread"' in unread  # marking one read comes back to the same filter


@pytest.mark.django_db
def test_marking_a_notice_read_is_for_its_own_user_only(world, client):
    notices_of(world.owner_a, 1)
    notice = Notice.objects.get(user=world.owner_a)
    client.force_login(world.owner_b)
    assert client.post(f"/notices/{notice.pk}/read/").status_code == 404
    client.force_login(world.owner_a)
    response = client.post(f"/notices/{notice.pk}/read/", {"show": "unread"})
    assert response.status_code == 302 and response["Location"] == "/notices/?show=unread"
    notice.refresh_from_db()
    assert notice.read is not None


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_in_chromium_a_user_opens_notices_from_home_and_marks_one_read(browser, live_server, world):
    notices_of(world.owner_a, 2)
    page = login(browser, live_server, "owner-a")
    page.click("#all-notices")
    page.wait_for_selector("#unread-count:has-text('2 unread')")
    page.locator("#notice-list button:has-text('Mark read')").first.click()
    page.wait_for_selector("#unread-count:has-text('1 unread')")
    page.click("#notice-filter a:has-text('read') >> nth=-1")
    page.wait_for_url("**/notices/?show=read")
    assert page.locator("#notice-list tbody tr").count() == 1
