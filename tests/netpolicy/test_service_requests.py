"""A PI asks the site admins for a new service: checked like a catalogue entry, audited, the admins told."""

import pytest

from audit.models import AuditEvent
from core.errors import Forbidden, InvalidRequest
from netpolicy.models import Service
from netpolicy.service_requests import request_service
from notices.models import Notice

pytestmark = pytest.mark.django_db

JUPYTER = {"name": "jupyter", "protocol": "tcp", "ports": "8888-8899"}


def test_an_owners_request_is_audited_and_every_site_admin_is_told_with_the_service_filled_in(world):
    link = request_service(world.owner_a, world.tenant_a, dict(JUPYTER), "Notebooks for the summer school")
    event = AuditEvent.objects.get(action="service.request")
    assert event.tenant_id == world.tenant_a.pk and "Notebooks" in event.message
    notice = Notice.objects.get(user=world.admin)
    assert "tenant-a asks for a service jupyter (tcp 8888-8899)" in notice.subject and notice.url == link
    assert "name=jupyter" in link and "ports=8888-8899" in link
    assert not Service.objects.filter(name="jupyter").exists()  # the admins decide


def test_a_request_is_checked_as_a_service_would_be_and_nothing_is_written_when_refused(world):
    cases = [
        ({"name": "web", "protocol": "icmp", "ports": "80"}, "ports"),
        ({"name": "web", "protocol": "tcp", "ports": "80-70"}, "ports"),
        ({"name": "ssh", "protocol": "tcp", "ports": "22"}, "name"),
    ]
    for data, field in cases:
        with pytest.raises(InvalidRequest) as refused:
            request_service(world.owner_a, world.tenant_a, data, "why")
        assert refused.value.field == field, data
    with pytest.raises(InvalidRequest):
        request_service(world.owner_a, world.tenant_a, dict(JUPYTER), "   ")
    assert not AuditEvent.objects.filter(action="service.request").exists() and not Notice.objects.exists()


def test_a_member_cannot_ask_in_the_tenants_name(world):
    with pytest.raises(Forbidden):
        request_service(world.member_a, world.tenant_a, dict(JUPYTER), "why")


def test_the_page_takes_an_owners_request_and_the_admins_form_opens_filled_in(world, client):
    client.force_login(world.owner_a)
    page = client.get("/network/firewall/services/request/").content.decode()
    assert 'id="service-request-form"' in page and "ssh" in page
    response = client.post("/network/firewall/services/request/", {"tenant": world.tenant_a.pk, **JUPYTER,
                                                                   "justification": "notebooks"})  # fmt: skip
    assert response.status_code == 302
    link = Notice.objects.get(user=world.admin).url
    client.force_login(world.admin)
    form = client.get(link).content.decode()
    assert 'value="jupyter"' in form and 'value="8888-8899"' in form


def test_a_member_sees_the_catalogue_but_no_form(world, client):
    client.force_login(world.member_a)
    page = client.get("/network/firewall/services/request/").content.decode()
    assert "service-request-form" not in page and "ask yours" in page
