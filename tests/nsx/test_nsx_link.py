"""The vCenter <-> NSX Manager link, held on vsphere's side since issue 33: API shape and rules unchanged."""

import pytest

from audit.models import AuditEvent
from nsx.models import NsxManager
from tests.vsphere.sites import make_vcenter
from vsphere.models import VCenter

pytestmark = pytest.mark.django_db
BODY = {"url": "https://nsx.example.org", "username": "admin", "password": "pw",
        "transport_zone_path": "/infra/sites/default/enforcement-points/default/transport-zones/tz"}  # fmt: skip


def test_a_registered_manager_is_linked_from_its_vcenter_and_shown_with_its_vcenter_id(world, api):
    vcenter = make_vcenter("link-a")
    reply = api(world.admin).post("/api/v1/nsx-managers/", {**BODY, "vcenter": vcenter.pk}, format="json")
    assert reply.status_code == 201, reply.json()
    manager = NsxManager.objects.get(pk=reply.json()["id"])
    assert reply.json()["vcenter"] == vcenter.pk and VCenter.objects.get(pk=vcenter.pk).nsx == manager
    listed = api(world.admin).get("/api/v1/nsx-managers/").json()
    assert [m["vcenter"] for m in listed["results"]] == [vcenter.pk]
    event = AuditEvent.objects.get(action="nsx.manager_create")
    assert event.after["vcenter"] == vcenter.pk


def test_a_second_manager_for_the_same_vcenter_is_refused(world, api):
    vcenter = make_vcenter("link-b")
    first = api(world.admin).post("/api/v1/nsx-managers/", {**BODY, "vcenter": vcenter.pk}, format="json")
    assert first.status_code == 201
    again = api(world.admin).post("/api/v1/nsx-managers/", {**BODY, "vcenter": vcenter.pk}, format="json")
    assert again.status_code == 400 and "vcenter" in str(again.json()), again.json()
    assert NsxManager.objects.count() == 1


def test_a_manager_stays_with_its_vcenter(world, api):
    first, other = make_vcenter("link-c"), make_vcenter("link-d")
    created = api(world.admin).post("/api/v1/nsx-managers/", {**BODY, "vcenter": first.pk}, format="json").json()
    moved = api(world.admin).patch(f"/api/v1/nsx-managers/{created['id']}/", {"vcenter": other.pk}, format="json")
    assert moved.status_code == 400 and VCenter.objects.get(pk=first.pk).nsx_id == created["id"]
    assert VCenter.objects.get(pk=other.pk).nsx_id is None


def test_a_vcenter_with_a_manager_cannot_be_deleted_until_the_manager_is_forgotten(world, api):
    vcenter = make_vcenter("link-e")
    created = api(world.admin).post("/api/v1/nsx-managers/", {**BODY, "vcenter": vcenter.pk}, format="json").json()
    refused = api(world.admin).delete(f"/api/v1/vcenters/{vcenter.pk}/")
    assert refused.status_code == 409 and "NSX" in refused.json()["detail"]
    assert api(world.admin).delete(f"/api/v1/nsx-managers/{created['id']}/").status_code == 204
    assert VCenter.objects.get(pk=vcenter.pk).nsx_id is None
    assert api(world.admin).delete(f"/api/v1/vcenters/{vcenter.pk}/").status_code == 204
