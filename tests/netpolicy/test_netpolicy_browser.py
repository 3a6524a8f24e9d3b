"""In Debian's Chromium (Playwright, no browser download): request an overlay, approve it."""

import pytest

from netpolicy.models import Segment
from tests.browser import login
from tests.netpolicy.test_netpolicy_db_segments import make_pools

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_member_requests_an_overlay_sees_the_mtu_warning_and_admin_approves(browser, live_server, world, tmp_path):
    make_pools(world.admin)
    member = login(browser, live_server, "member-a")
    member.goto(f"{live_server.url}/network/segments/new/")
    member.select_option("#id_tenant", label="tenant-a")
    member.fill("#id_name", "ml-net")
    member.select_option("#id_kind", "overlay")
    # htmx checks the request against the pools and recomputes the MTU while the user types.
    member.wait_for_selector("#allocation:has-text('VNI 5000')")
    member.fill("#id_mtu", "1400")
    member.wait_for_selector("#effective-mtu:has-text('guests see 1350')")
    member.wait_for_selector("#mtu-warning", state="detached")
    member.fill("#id_mtu", "2044")
    member.wait_for_selector("#mtu-warning:has-text('use at most 1994')")
    member.fill("#id_subnet", "10.64.0.1/24")
    member.wait_for_selector("#err-subnet:has-text('has host bits set')")
    member.fill("#id_subnet", "")
    member.wait_for_selector("#err-subnet li", state="detached")
    member.screenshot(path=str(tmp_path / "segment-form.png"))
    member.click("#request-segment")
    member.wait_for_selector("#segment-state:has-text('Requested')")
    segment = Segment.objects.get(name="ml-net")
    assert (segment.vni, segment.mtu, segment.state) == (5000, 2044, "requested")

    admin = login(browser, live_server, "site-admin")
    admin.goto(f"{live_server.url}/network/segments/")
    admin.click(f"#pending-segments a[href='/network/segments/{segment.pk}/']")
    admin.click("#approve")
    admin.wait_for_selector("#segment-state:has-text('Approved')")

    member.goto(f"{live_server.url}/network/segments/{segment.pk}/")
    member.wait_for_selector("#segment-state:has-text('Approved')")
    history = member.inner_text("#history")
    assert "segment.approve" in history and "site-admin" in history
