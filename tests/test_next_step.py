"""A requester always knows what happens next: the path and who acts, on the page, in the e-mail and the API."""

import pytest
from django.core import mail

from tenants import services
from tests.browser import login
from tests.conftest import cluster_data, service_data


def submitted(world):
    return services.create_cluster(world.tenant_a, world.member_a, service_data(), submit=True)


@pytest.mark.django_db
def test_the_api_says_a_pi_of_the_tenant_endorses_next_after_a_member_submits(world, api):
    response = api(world.member_a).post("/api/v1/clusters/", cluster_data(tenant=world.tenant_a.pk, submit=True),
                                        format="json")  # fmt: skip
    assert response.status_code == 201, response.content
    assert response.json()["next_step"] == {
        "step": "endorse", "actor": "pi",
        "text": "A PI of tenant-a endorses the request; then a site admin approves it.",
    }  # fmt: skip
    listed = api(world.member_a).get("/api/v1/clusters/").json()["results"][0]
    assert listed["next_step"]["step"] == "endorse"


@pytest.mark.django_db
def test_after_endorsement_the_api_names_a_site_admin_and_after_approval_nobody(world, api):
    cluster = services.endorse_cluster(submitted(world), world.owner_a)
    body = api(world.member_a).get(f"/api/v1/clusters/{cluster.pk}/").json()
    assert body["next_step"]["step"] == "approve" and body["next_step"]["actor"] == "site_admin"
    services.approve_cluster(cluster, world.admin)
    body = api(world.member_a).get(f"/api/v1/clusters/{cluster.pk}/").json()
    assert body["next_step"]["step"] == "provisioning" and body["next_step"]["actor"] == "site"


@pytest.mark.django_db
def test_the_submission_email_and_notice_show_the_path_and_who_endorses_next(world, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        submitted(world)
    mine = [m for m in mail.outbox if m.to == [world.member_a.email] and "submitted" in m.subject]
    assert mine, [m.subject for m in mail.outbox]
    body = mine[0].body
    assert "[x] Submitted" in body and "[>] A PI of the tenant endorses" in body and "[ ] A site admin approves" in body
    assert "Next: A PI of tenant-a endorses the request; then a site admin approves it." in body
    notice = world.member_a.notices.get(subject__contains="submitted")
    assert "Next: A PI of tenant-a endorses" in notice.body


@pytest.mark.django_db
def test_a_members_page_says_in_words_what_the_site_did_and_admins_keep_the_generation_numbers(world, client):
    cluster = submitted(world)
    client.force_login(world.member_a)
    page = client.get(f"/clusters/{cluster.pk}/").content.decode()
    assert "generation" not in page and "not yet at the site" in page
    assert 'aria-current="step">A PI of the tenant endorses' in page
    client.force_login(world.admin)
    assert "generation 1, observed 0" in client.get(f"/clusters/{cluster.pk}/").content.decode()


@pytest.mark.django_db
def test_a_request_not_yet_approved_has_no_lease_card_and_a_withdraw_confirmation(world, client):
    cluster = submitted(world)
    client.force_login(world.member_a)
    page = client.get(f"/clusters/{cluster.pk}/").content.decode()
    assert 'id="lease"' not in page and 'id="extend-lease"' not in page
    assert f"Withdraw the request {cluster}?" in page and "Decommission" not in page


@pytest.mark.django_db
def test_a_member_of_an_approved_cluster_reads_who_may_resize_it(world, client):
    cluster = services.approve_cluster(services.endorse_cluster(submitted(world), world.owner_a), world.admin)
    client.force_login(world.member_a)
    page = client.get(f"/clusters/{cluster.pk}/").content.decode()
    assert 'id="resize-form"' not in page and "A PI of tenant-a or a site admin can resize this cluster." in page
    assert 'id="lease"' in page
    client.force_login(world.owner_a)
    page = client.get(f"/clusters/{cluster.pk}/").content.decode()
    assert 'id="resize-form"' in page and 'id="resize-who"' not in page


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_in_chromium_a_member_sees_the_path_and_the_withdraw_question_after_submitting(browser, live_server, world):
    cluster = submitted(world)
    member = login(browser, live_server, "member-a")
    member.goto(f"{live_server.url}/clusters/{cluster.pk}/")
    assert member.inner_text("#request-path [aria-current=step]") == "A PI of the tenant endorses"
    assert "A PI of tenant-a endorses the request" in member.inner_text("#next-step")
    assert "generation" not in member.inner_text("#cluster-status")
    asked = []
    member.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    member.click("#withdraw")
    assert asked == [f"Withdraw the request {cluster}?"]
    assert member.query_selector("#lease") is None
