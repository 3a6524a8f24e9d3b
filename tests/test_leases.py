"""Lease policy: a site maximum, extensions past it with a justification and a PI's or admin's approval,
expiry warnings sent once per threshold, and a cluster page that says what happens at expiry."""

import datetime

import pytest
from django.core import mail
from django.utils import timezone

from audit.models import AuditEvent
from core.errors import Conflict, Forbidden, InvalidRequest
from tenants import services, tasks
from tenants.choices import ExtensionState
from tenants.models import LeaseExtension, VirtualCluster
from tests.conftest import cluster_data, service_data

pytestmark = pytest.mark.django_db


def days(n: int) -> datetime.date:
    return timezone.localdate() + datetime.timedelta(days=n)


def live_cluster(world, requester=None, lease_days=30):
    """An approved (live) cluster of tenant A requested by the member."""
    cluster = services.create_cluster(world.tenant_a, requester or world.member_a,
                                      service_data(lease_end=days(lease_days).isoformat()), submit=True)  # fmt: skip
    if cluster.state == "submitted":
        cluster = services.endorse_cluster(cluster, world.owner_a)
    return services.approve_cluster(cluster, world.admin)


def test_a_request_past_the_site_maximum_is_refused_naming_the_latest_date(world, api, settings):
    settings.LEASE_MAX_DAYS = 90
    with pytest.raises(InvalidRequest) as refused:
        services.create_cluster(world.tenant_a, world.member_a, service_data(lease_end=days(91).isoformat()))
    assert refused.value.field == "lease_end" and str(days(90)) in str(refused.value.detail)
    response = api(world.member_a).post("/api/v1/clusters/", cluster_data(tenant=world.tenant_a.pk,
                                        lease_end="2099-01-01"), format="json")  # fmt: skip
    assert response.status_code == 400 and "at most 90 days" in str(response.json())
    assert not VirtualCluster.objects.exists()
    assert services.create_cluster(world.tenant_a, world.member_a, service_data(lease_end=days(90).isoformat()))


def test_an_extension_within_the_maximum_moves_the_lease_at_once(world):
    cluster = live_cluster(world)
    cluster = services.change_lease(cluster, world.member_a, days(200))
    assert cluster.lease_end == days(200)
    assert AuditEvent.objects.filter(action="cluster.extend_lease").count() == 1


def test_an_extension_past_the_maximum_without_a_justification_is_refused_and_says_how(world, settings):
    cluster = live_cluster(world)
    with pytest.raises(InvalidRequest) as refused:
        services.change_lease(cluster, world.member_a, days(settings.LEASE_MAX_DAYS + 1))
    assert "justification" in str(refused.value.detail)
    cluster.refresh_from_db()
    assert cluster.lease_end == days(30) and not LeaseExtension.objects.exists()


def test_an_extension_past_the_maximum_waits_for_the_pi_who_is_told(world, settings,
                                                                    django_capture_on_commit_callbacks):  # fmt: skip
    cluster = live_cluster(world)
    with django_capture_on_commit_callbacks(execute=True):
        extension = services.change_lease(cluster, world.member_a, days(500), "Paper revision due next year")
    assert isinstance(extension, LeaseExtension) and extension.state == ExtensionState.PENDING
    cluster.refresh_from_db()
    assert cluster.lease_end == days(30), "nothing moves before the approval"
    (mail_to_pi,) = [m for m in mail.outbox if "lease extension" in m.subject]
    assert mail_to_pi.to == [world.owner_a.email] and "Paper revision due next year" in mail_to_pi.body
    assert AuditEvent.objects.filter(action="lease_extension.request").count() == 1


def test_the_pi_approves_an_extension_the_lease_moves_and_the_requester_hears(
    world, django_capture_on_commit_callbacks
):
    cluster = live_cluster(world)
    extension = services.change_lease(cluster, world.member_a, days(500), "Paper revision")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        extension = services.decide_extension(extension, world.owner_a, approve=True)
    cluster.refresh_from_db()
    assert extension.state == ExtensionState.APPROVED and extension.decided_by == world.owner_a
    assert cluster.lease_end == days(500)
    assert [m.to for m in mail.outbox if "extension approved" in m.subject] == [[world.member_a.email]]
    actions = list(AuditEvent.objects.filter(action__contains="lease").values_list("action", flat=True))
    assert "lease_extension.approve" in actions and "cluster.extend_lease" in actions
    with pytest.raises(Conflict):
        services.decide_extension(extension, world.admin, approve=False, reason="too late")


def test_nobody_but_a_site_admin_decides_their_own_extension(world):
    cluster = live_cluster(world, requester=world.owner_a)
    extension = services.change_lease(cluster, world.owner_a, days(500), "Long campaign")
    with pytest.raises(Forbidden):
        services.decide_extension(extension, world.owner_a, approve=True)
    assert services.decide_extension(extension, world.admin, approve=True).state == ExtensionState.APPROVED


def test_a_member_or_another_tenant_cannot_decide_an_extension(world):
    cluster = live_cluster(world)
    extension = services.change_lease(cluster, world.member_a, days(500), "Long campaign")
    for outsider in (world.member_a, world.owner_b):
        with pytest.raises(Forbidden):
            services.decide_extension(extension, outsider, approve=True)
    cluster.refresh_from_db()
    assert cluster.lease_end == days(30)


def test_a_rejection_needs_a_reason_and_keeps_the_lease(world, django_capture_on_commit_callbacks):
    cluster = live_cluster(world)
    extension = services.change_lease(cluster, world.member_a, days(500), "Long campaign")
    with pytest.raises(InvalidRequest):
        services.decide_extension(extension, world.owner_a, approve=False)
    with django_capture_on_commit_callbacks(execute=True):
        extension = services.decide_extension(extension, world.owner_a, approve=False, reason="Move to archive")
    cluster.refresh_from_db()
    assert extension.state == ExtensionState.REJECTED and cluster.lease_end == days(30)
    (told,) = [m for m in mail.outbox if "extension rejected" in m.subject]
    assert told.to == [world.member_a.email] and "Move to archive" in told.body


def test_a_second_extension_request_while_one_waits_is_a_conflict(world):
    cluster = live_cluster(world)
    services.change_lease(cluster, world.member_a, days(500), "Long campaign")
    with pytest.raises(Conflict):
        services.change_lease(cluster, world.owner_a, days(600), "Even longer")
    assert LeaseExtension.objects.count() == 1


def test_each_expiry_warning_goes_out_once_to_the_requester_and_the_pis(world, django_capture_on_commit_callbacks):
    cluster = live_cluster(world, lease_days=30)
    mail.outbox.clear()
    for _ in range(2):  # the periodic task runs again: nothing new to say
        with django_capture_on_commit_callbacks(execute=True):
            tasks.warn_expiring_leases()
    warnings = [m for m in mail.outbox if "lease ends in" in m.subject]
    assert sorted(a for m in warnings for a in m.to) == sorted([world.member_a.email, world.owner_a.email])
    assert "decommissioned" in warnings[0].body and f"/clusters/{cluster.pk}/#lease" in warnings[0].body
    mail.outbox.clear()
    VirtualCluster.objects.filter(pk=cluster.pk).update(lease_end=days(14))  # two weeks later (same lease end)
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.warn_expiring_leases() == 1
        assert tasks.warn_expiring_leases() == 0
    assert len([m for m in mail.outbox if "lease ends in 14 days" in m.subject]) == 2


def test_a_cluster_found_late_gets_one_warning_not_three(world, django_capture_on_commit_callbacks):
    live_cluster(world, lease_days=5)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.warn_expiring_leases() == 1
    assert len([m for m in mail.outbox if "lease ends in 5 days" in m.subject]) == 2


def test_an_extended_lease_is_warned_again_before_its_new_end(world, django_capture_on_commit_callbacks):
    cluster = live_cluster(world, lease_days=7)
    assert tasks.warn_expiring_leases() == 1
    cluster = services.change_lease(cluster, world.member_a, days(30))
    assert tasks.warn_expiring_leases() == 1
    assert tasks.warn_expiring_leases() == 0


def test_warning_days_are_a_setting(world, settings):
    settings.LEASE_WARNING_DAYS = (3,)
    live_cluster(world, lease_days=7)
    assert tasks.warn_expiring_leases() == 0


def test_the_cluster_page_says_what_happens_at_expiry_and_extends_in_one_click(world, client, settings):
    cluster = live_cluster(world)
    client.force_login(world.member_a)
    page = client.get(f"/clusters/{cluster.pk}/").content.decode()
    assert 'id="lease"' in page and "VMs are deleted" in page and "in 30 days" in page
    latest = days(settings.LEASE_MAX_DAYS).isoformat()
    assert f'value="{latest}"' in page, "the form is filled with the furthest date allowed without review"
    response = client.post(f"/clusters/{cluster.pk}/extend-lease/", {"lease_end": latest})
    assert response.status_code == 302
    cluster.refresh_from_db()
    assert cluster.lease_end == days(settings.LEASE_MAX_DAYS)


def test_the_cluster_page_requests_and_the_pi_decides_an_extension(world, client):
    cluster = live_cluster(world)
    client.force_login(world.member_a)
    client.post(f"/clusters/{cluster.pk}/extend-lease/", {"lease_end": days(500).isoformat(), "justification": "Paper"})
    page = client.get(f"/clusters/{cluster.pk}/").content.decode()
    assert 'id="pending-extension"' in page and 'id="approve-extension"' not in page
    client.force_login(world.owner_a)
    assert "1 lease extension to decide" in client.get("/").content.decode()
    assert 'id="approve-extension"' in client.get(f"/clusters/{cluster.pk}/").content.decode()
    client.post(f"/clusters/{cluster.pk}/approve-extension/")
    cluster.refresh_from_db()
    assert cluster.lease_end == days(500)


def test_the_api_requests_and_decides_an_extension(world, api):
    cluster = live_cluster(world)
    url = f"/api/v1/clusters/{cluster.pk}"
    too_far = {"lease_end": days(500).isoformat()}
    assert api(world.member_a).post(f"{url}/extend-lease/", too_far, format="json").status_code == 400
    response = api(world.member_a).post(f"{url}/extend-lease/", {**too_far, "justification": "x"}, format="json")
    assert response.status_code == 202 and response.json()["state"] == "pending"
    assert api(world.member_a).post(f"{url}/approve-extension/").status_code == 403
    assert api(world.owner_b).post(f"{url}/approve-extension/").status_code == 404
    assert api(world.owner_a).post(f"{url}/reject-extension/", {"reason": ""}, format="json").status_code == 400
    response = api(world.owner_a).post(f"{url}/approve-extension/")
    assert response.status_code == 200 and response.json()["state"] == "approved"
    assert api(world.owner_a).post(f"{url}/approve-extension/").status_code == 409


def test_the_request_form_says_the_longest_lease_and_refuses_a_longer_one_while_typing(world, client, settings):
    settings.LEASE_MAX_DAYS = 60
    client.force_login(world.member_a)
    page = client.get("/clusters/new/").content.decode()
    assert f'max="{days(60).isoformat()}"' in page and "At most 60 days" in page
    body = {**cluster_data(tenant=world.tenant_a.pk, lease_end=days(61).isoformat()), "submit": "1"}
    page = client.post("/clusters/new/", body).content.decode()
    assert "Leases run at most 60 days" in page and not VirtualCluster.objects.exists()


def test_a_waiting_extension_is_withdrawn_when_its_cluster_is_decommissioned(world):
    cluster = live_cluster(world)
    extension = services.change_lease(cluster, world.member_a, days(500), "Long campaign")
    services.decommission_cluster(VirtualCluster.objects.get(pk=cluster.pk), world.member_a)
    extension.refresh_from_db()
    assert extension.state == ExtensionState.WITHDRAWN and "decommissioning" in extension.decision_reason
    assert AuditEvent.objects.filter(action="lease_extension.withdraw", object_id=str(extension.pk)).count() == 1
    with pytest.raises(Conflict):
        services.decide_extension(extension, world.owner_a, approve=True)
