"""Notices: whoever must act next hears of it (PI, site admins, owners), by e-mail unless they opted out."""

import datetime

import pytest
from django.core import mail
from django.utils import timezone

from audit.models import AuditEvent
from core.errors import Forbidden
from netpolicy import allocation, segments
from notices.models import Notice, Preference
from notices.services import set_email_preferences
from tenants import services, tasks
from tests.conftest import service_data

pytestmark = pytest.mark.django_db


def recipients(subject_part: str) -> set[str]:
    return {address for m in mail.outbox if subject_part in m.subject for address in m.to}


def test_a_members_request_tells_the_pi_then_the_admins_then_the_requester(world, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        cluster = services.create_cluster(world.tenant_a, world.member_a, service_data(), submit=True)
    assert recipients("waits for your endorsement") == {world.owner_a.email}
    assert recipients("submitted") == {world.member_a.email}
    assert not recipients("waits for your approval")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        cluster = services.endorse_cluster(cluster, world.owner_a)
    assert recipients("waits for your approval") == {world.admin.email}
    assert recipients("endorsed by your PI") == {world.member_a.email}
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.reject_cluster(cluster, world.admin, "no budget")
    assert recipients("") == {world.member_a.email}, "a decision goes to the requester only"
    assert world.owner_b.email not in {a for m in mail.outbox for a in m.to}


def test_each_mail_goes_to_one_recipient_so_nobody_sees_the_others(world, make_user,
                                                                  django_capture_on_commit_callbacks):  # fmt: skip
    make_user("second-admin", staff=True)
    with django_capture_on_commit_callbacks(execute=True):
        services.create_cluster(world.tenant_a, world.owner_a, service_data(), submit=True)
    approvals = [m for m in mail.outbox if "waits for your approval" in m.subject]
    assert len(approvals) == 2 and all(len(m.to) == 1 for m in approvals)


def test_an_owners_own_request_goes_straight_to_the_admins(world, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        services.create_cluster(world.tenant_a, world.owner_a, service_data(), submit=True)
    assert recipients("waits for your approval") == {world.admin.email}
    assert not recipients("waits for your endorsement")


def test_a_user_who_turned_an_email_kind_off_still_gets_the_notice_in_app(world, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        set_email_preferences(world.owner_a, {"endorse": False})
        services.create_cluster(world.tenant_a, world.member_a, service_data(), submit=True)
    assert not recipients("waits for your endorsement")
    assert Notice.objects.filter(user=world.owner_a, kind="endorse").count() == 1
    assert AuditEvent.objects.filter(action="notice_preference.update").count() == 1


def test_a_refused_step_leaves_no_notice_and_sends_no_mail(world, django_capture_on_commit_callbacks):
    cluster = services.create_cluster(world.tenant_a, world.member_a, service_data(), submit=True)
    Notice.objects.all().delete()
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(Forbidden):
        services.endorse_cluster(cluster, world.member_a)
    assert not Notice.objects.exists() and not mail.outbox


def test_admins_get_one_digest_instead_of_a_mail_per_request_when_many_wait(
    world, settings, django_capture_on_commit_callbacks
):
    settings.NOTICE_DIGEST_THRESHOLD = 2
    with django_capture_on_commit_callbacks(execute=True):
        for n in range(4):
            services.create_cluster(world.tenant_a, world.owner_a, service_data(name=f"c{n}", worker_count=1),
                                    submit=True)  # fmt: skip
    assert len([m for m in mail.outbox if "waits for your approval" in m.subject]) == 2, "the first two only"
    assert Notice.objects.filter(user=world.admin, kind="approve").count() == 4, "in-app: every one"
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.send_admin_digest() == 1
    (digest,) = mail.outbox
    assert digest.to == [world.admin.email] and "4 requests wait" in digest.subject
    assert "4 cluster requests" in digest.body and "/approvals/" in digest.body


def test_the_digest_stays_silent_while_few_items_wait(world, django_capture_on_commit_callbacks):
    services.create_cluster(world.tenant_a, world.owner_a, service_data(), submit=True)
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.send_admin_digest() == 0
    assert not mail.outbox


def test_a_segment_request_tells_the_admins_and_its_decision_tells_the_owner_and_requester(
    world, django_capture_on_commit_callbacks
):
    allocation.create_pool(world.admin, {"name": "vl", "kind": "vlan", "first": 100, "last": 199})
    allocation.create_pool(world.admin, {"name": "v4", "kind": "ipv4", "cidr": "10.70.0.0/16",
                                         "default_prefix_length": 29})  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        segment = segments.create_segment(world.tenant_a, world.member_a, {"name": "net", "kind": "vlan"})
    assert recipients("Segment tenant-a/net waits for your approval") == {world.admin.email}
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        segments.transition_segment(segment, world.admin, "reject", "rejected", "no VLANs left this month")
    assert recipients("Segment tenant-a/net rejected") == {world.owner_a.email, world.member_a.email}
    assert all("no VLANs left this month" in m.body for m in mail.outbox)


def test_the_home_page_shows_what_waits_for_the_user_and_recent_notices(world, client):
    services.create_cluster(world.tenant_a, world.member_a, service_data(), submit=True)
    client.force_login(world.owner_a)
    page = client.get("/").content.decode()
    assert 'id="waiting"' in page and "1 request to endorse" in page
    assert "tenant-a/mpi-1 waits for your endorsement" in page
    client.force_login(world.owner_b)
    page = client.get("/").content.decode()
    assert "Nothing waits for your decision" in page and "tenant-a" not in page


def test_the_preferences_page_turns_email_off_per_kind_for_the_user_only(world, client):
    client.force_login(world.owner_a)
    assert client.get("/notices/preferences/").status_code == 200
    kept = {kind: "on" for kind in ("approve", "extension", "digest", "cluster", "segment", "lease")}
    response = client.post("/notices/preferences/", kept)
    assert response.status_code == 302
    assert list(Preference.objects.filter(email=False).values_list("user__username", "kind")) == [
        ("owner-a", "endorse")
    ]
    page = client.get("/notices/preferences/").content.decode()
    assert 'name="endorse"' in page and 'name="endorse" id="id_endorse" checked' not in page


def test_unread_notices_are_marked_and_the_user_marks_them_read_without_touching_anyone_elses(world, client):
    services.create_cluster(world.tenant_a, world.member_a, service_data(), submit=True)
    assert Notice.objects.filter(user=world.owner_a, read__isnull=True).count() == 1
    client.force_login(world.owner_a)
    assert "(1 unread)" in client.get("/").content.decode()
    page = client.get("/notices/preferences/").content.decode()
    assert 'id="unread-count"' in page and 'class="unread"' in page
    others = Notice.objects.exclude(user=world.owner_a).filter(read__isnull=True).count()
    assert client.post("/notices/preferences/", {"read_all": "1"}).status_code == 302
    assert not Notice.objects.filter(user=world.owner_a, read__isnull=True).exists()
    assert Notice.objects.exclude(user=world.owner_a).filter(read__isnull=True).count() == others
    assert "unread" not in client.get("/").content.decode()


def test_notices_past_their_retention_are_pruned_by_the_daily_task(world, settings):
    from notices.tasks import prune_notices

    services.create_cluster(world.tenant_a, world.member_a, service_data(), submit=True)
    old = Notice.objects.get(user=world.owner_a)
    Notice.objects.filter(pk=old.pk).update(created=timezone.now() - datetime.timedelta(days=200))
    services.create_cluster(world.tenant_a, world.member_a, service_data(name="mpi-2"), submit=True)
    settings.NOTICE_RETENTION_DAYS = 180
    assert prune_notices() == 1
    assert not Notice.objects.filter(pk=old.pk).exists() and Notice.objects.filter(user=world.owner_a).count() == 1
