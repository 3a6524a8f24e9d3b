"""The audit log pages by keyset (newest first, `before`/`after` ids, API cursors): no COUNT, no
OFFSET, so a page costs the same at a million events as at ten."""

import pytest

from audit.models import AuditEvent
from tests import bulk

pytestmark = pytest.mark.django_db


def test_the_api_walks_every_event_newest_first_with_cursors(world, api):
    bulk.events(world, 120)
    client, seen, url = api(world.admin), [], "/api/v1/audit-events/?limit=50"
    while url:
        page = client.get(url).json()
        assert "count" not in page
        seen += [e["id"] for e in page["results"]]
        url = page["next"]
    assert seen == list(AuditEvent.objects.order_by("-id").values_list("id", flat=True))


def test_the_page_goes_to_older_and_back_to_newer_events(world, client):
    bulk.events(world, 120)
    client.force_login(world.admin)
    ids = list(AuditEvent.objects.filter(action="bulk.create").order_by("-id").values_list("id", flat=True))
    first = client.get("/audit/?action=bulk.").content.decode()
    assert f"?action=bulk.&amp;before={ids_of_page(ids, 0)[-1]}" in first and "after=" not in first
    second = client.get(f"/audit/?action=bulk.&before={ids_of_page(ids, 0)[-1]}").content.decode()
    assert f"before={ids_of_page(ids, 1)[-1]}" in second and f"after={ids_of_page(ids, 1)[0]}" in second
    back = client.get(f"/audit/?action=bulk.&after={ids_of_page(ids, 1)[0]}").content.decode()
    assert f"before={ids_of_page(ids, 0)[-1]}" in back and "after=" not in back


def ids_of_page(ids, number, size=50):
    return ids[number * size : (number + 1) * size]


def test_the_export_links_follow_the_live_filter_and_export_only_what_it_matches(world, client):
    bulk.events(world, 30)
    AuditEvent.objects.create(actor_kind="user", actor_label="owner-a", actor=world.owner_a,
                              tenant_id=world.tenant_a.pk, action="other.thing", object_type="tests.other",
                              object_id="1", object_repr="x")  # fmt: skip
    client.force_login(world.admin)
    # htmx re-renders the table (with its export links) on every change of the filter form
    partial = client.get("/audit/?action=other.", HTTP_HX_REQUEST="true").content.decode()
    assert 'href="?action=other.&amp;export=csv"' in partial and 'href="?action=other.&amp;export=json"' in partial
    csv_text = b"".join(client.get("/audit/?action=other.&export=csv").streaming_content).decode()
    assert csv_text.count("\n") == 2 and "other.thing" in csv_text and "bulk.create" not in csv_text
    everything = client.get("/audit/", HTTP_HX_REQUEST="true").content.decode()
    assert 'href="?export=csv"' in everything


def test_before_and_after_are_shown_as_a_field_level_diff(world, client):
    AuditEvent.objects.create(actor_kind="user", actor_label="owner-a", tenant_id=world.tenant_a.pk,
                              action="quota.update", object_type="tenants.quota", object_id="1",
                              object_repr="quota of tenant-a",
                              before={"max_nodes": 4, "max_vcpus": 64, "note": "x" * 300},
                              after={"max_nodes": 8, "max_vcpus": 64, "note": "x" * 300,
                                     "tags": ["a", "b"]})  # fmt: skip
    client.force_login(world.admin)
    page = client.get("/audit/?action=quota.").content.decode()
    diff = page.split('class="diff"')[1].split("</table>")[0]
    assert '<th scope="row" style="overflow-wrap:anywhere">max_nodes</th>' in diff
    assert "<code>4</code>" in diff and "<code>8</code>" in diff
    assert '<code>—</code></td><td style="overflow-wrap:anywhere"><code>[&quot;a&quot;, &quot;b&quot;]</code>' in diff
    assert "max_vcpus" not in diff and "note" not in diff  # unchanged fields are not repeated
    assert "{&#x27;max_nodes&#x27;" not in page  # no raw dict dumps


def test_the_diff_lists_every_field_of_a_creation_and_only_changed_fields_otherwise():
    from audit.diff import ABSENT, Change, changes

    assert changes(None, {"a": 1, "b": None}) == [Change("a", ABSENT, "1"), Change("b", ABSENT, "null")]
    assert changes({"a": 1, "b": "x"}, {"a": 1, "b": "y"}) == [Change("b", "x", "y")]
    assert changes({"a": {"k": 1}}, None) == [Change("a", '{"k": 1}', ABSENT)]
