"""Derived text is rendered for its reader: core.viewer_text, and the sources that can only speak of one tenant.

The canary (test_canary.py) reads every channel; these pin down why each source cannot leak. Sources that
only ever speak of one tenant: notices and e-mail (notices.services.notify tells only the members of the
tenant it is `about`, and site admins), webhook payloads (a tenant's webhook hears only its tenant's events:
tests/webhooks/test_deliveries.py), audit messages and exports (a member reads their tenants' events and
what they did to their own account), what-if (a member's question is answered on their own tenants only:
tests/netpolicy/test_netpolicy_db_whatif.py).
"""

import json

import pytest

from audit.context import acting_as, system_actor
from core import viewer_text
from core.viewer_text import SITE_ADMIN, Viewer
from notices.choices import NoticeKind
from notices.models import Notice
from notices.services import notify
from tenants import services
from tenants.access import viewer
from tests.conftest import service_data

pytestmark = pytest.mark.django_db


def test_a_message_shows_each_tenants_parts_only_to_that_tenant_and_the_site_admins():
    parts = ["rule ", viewer_text.owned(1, "'web'"), " exposes ", viewer_text.tenant(1, "astro"), " to ",
             viewer_text.tenant(2, "genomics"), " (", viewer_text.owned(2, "10.1.2.0/24", viewer_text.OTHER_NETWORK),
             ") and the site's ", viewer_text.owned(None, "nfs_servers")]  # fmt: skip
    astro = viewer_text.render_for(Viewer(frozenset({1})), parts)
    assert astro == "rule 'web' exposes astro to another tenant (another tenant's network) and the site's nfs_servers"
    assert viewer_text.render_for(SITE_ADMIN, parts).endswith("to genomics (10.1.2.0/24) and the site's nfs_servers")
    assert "genomics" not in viewer_text.render_for(Viewer(), parts) and "astro" not in viewer_text.render_for(
        Viewer(), parts
    )


def test_stored_parts_keep_their_owners_so_the_choice_is_made_when_someone_reads():
    parts = ["node ", viewer_text.owned(7, "vrf-7 failed")]
    stored = json.loads(json.dumps(viewer_text.dump(parts)))
    assert viewer_text.load(stored) == tuple(parts)
    assert (
        viewer_text.render_for(Viewer(frozenset({8})), viewer_text.load(stored)) == f"node {viewer_text.OTHER_OBJECT}"
    )
    assert viewer_text.load("plain") == ("plain",)


def test_texts_kept_per_tenant_are_read_only_by_that_tenant():
    kept = {"7": ["vxlan: File exists"], "8": ["nft: set t8"], "junk": ["?"]}
    assert viewer_text.by_tenant_for(Viewer(frozenset({7})), kept) == {"7": ["vxlan: File exists"]}
    assert viewer_text.by_tenant_for(SITE_ADMIN, kept) == kept


def test_a_users_viewer_is_their_tenants_or_the_whole_site(world):
    assert viewer(world.admin) is SITE_ADMIN
    assert viewer(world.member_a) == Viewer(frozenset({world.tenant_a.pk}))


def test_a_notice_about_one_tenant_reaches_only_its_members_and_the_site_admins(world, mailoutbox):
    with acting_as(system_actor("test")):
        told = notify([world.member_a, world.member_b, world.admin], NoticeKind.CLUSTER, "a-secret", "body of A",
                      about=world.tenant_a.pk)  # fmt: skip
    assert told == 2
    assert set(Notice.objects.filter(subject="a-secret").values_list("user", flat=True)) == {
        world.member_a.pk, world.admin.pk}  # fmt: skip
    assert all(world.member_b.email not in m.to for m in mailoutbox)


def test_a_notice_about_the_site_reaches_only_site_admins(world):
    assert notify([world.owner_a, world.admin], NoticeKind.DIGEST, "digest", "3 wait", about=None) == 1


def test_the_about_tenant_is_not_optional():
    with pytest.raises(TypeError):
        notify([], NoticeKind.DIGEST, "digest", "3 wait")


def test_a_requester_who_left_the_tenant_hears_no_more_of_its_cluster(world, django_capture_on_commit_callbacks):
    cluster = services.create_cluster(world.tenant_a, world.member_a, service_data())
    services.remove_membership(world.tenant_a.memberships.get(user=world.member_a))
    with django_capture_on_commit_callbacks(execute=True):
        services.submit_cluster(cluster, world.owner_a)
    assert not Notice.objects.filter(user=world.member_a).exists()


def test_a_members_audit_export_holds_only_their_tenants_events_and_their_own_actions(world, api):
    cluster = services.create_cluster(world.tenant_b, world.owner_b, service_data(name="b-secret"))
    assert cluster.pk
    client = api(world.member_a)
    body = b"".join(client.get("/api/v1/audit-events/export/?as=json").streaming_content)
    events = json.loads(body)
    assert events and all(e["tenant"] in (world.tenant_a.pk, None) for e in events)
    assert b"b-secret" not in body and b"tenant-b" not in body


def test_a_member_reads_what_they_did_to_their_own_account_but_not_site_events_their_action_caused(world, api):
    from audit.context import Actor, ActorKind
    from audit.services import record
    from netpolicy.models import Service

    site_object = Service.objects.create(name="site-thing", protocol="tcp", ports="9")
    as_member = Actor(kind=ActorKind.USER, label="member-a", user_id=world.member_a.pk)
    with acting_as(as_member):
        record("fabric.desired", site_object, before={"generation": 7}, after={"generation": 8})  # a side effect
        record("token.create", world.member_a, after={"name": "laptop"})  # their own account
    actions = {e["action"] for e in api(world.member_a).get("/api/v1/audit-events/?limit=200").json()["results"]}
    assert "token.create" in actions and "fabric.desired" not in actions
    assert "fabric.desired" in {e["action"] for e in api(world.admin).get("/api/v1/audit-events/").json()["results"]}
