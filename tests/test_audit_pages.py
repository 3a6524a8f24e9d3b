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
