"""A PI asks the site admins for a new service (protocol and ports): checked as a service, audited, told."""

from urllib.parse import urlencode

from django.db import transaction
from django.urls import reverse

from audit.services import record
from core.errors import InvalidRequest
from netpolicy.compiler.model import PolicyError
from netpolicy.ir import canonical_ports, to_service
from netpolicy.models import Service
from netpolicy.policy import require_editor
from notices.choices import NoticeKind
from notices.services import notify
from tenants.notifications import site_admins


def request_service(user, tenant, data: dict, justification: str) -> str:
    """Check the service as the catalogue would take it, audit the request on the tenant, tell the admins.

    Returns the link the admins get: the services page with the form filled in.
    """
    require_editor(user, tenant.pk)
    justification = (justification or "").strip()
    if not justification:
        raise InvalidRequest("Say what the service is for: the site admins decide on that.", field="justification")
    try:
        ports = canonical_ports(data.get("ports", ""))
    except PolicyError as exc:
        raise InvalidRequest(str(exc), field="ports") from None
    candidate = Service(name=data["name"], protocol=data["protocol"], ports=ports)
    try:
        to_service(candidate)  # the compiler's own rules (names, ports only for tcp and udp)
    except PolicyError as exc:
        raise InvalidRequest(str(exc), field="ports" if "ports" in str(exc) else "name") from None
    if Service.objects.filter(name=candidate.name).exists():
        raise InvalidRequest(f"A service {candidate.name} exists already: name it in a rule.", field="name")
    # A service is the site's, read by every tenant: its suggested description names no tenant and quotes none.
    query = urlencode({"name": candidate.name, "protocol": candidate.protocol, "ports": ports,
                       "description": "Asked for by a tenant (audit log: service.request)."})  # fmt: skip
    link = reverse("netpolicy:service-create") + "?" + query
    what = f"{candidate.name} ({candidate.protocol}{' ' + ports if ports else ''})"
    with transaction.atomic():
        record("service.request", tenant, tenant=tenant.pk, message=f"{what}: {justification}"[:4000],
               after={"name": candidate.name, "protocol": candidate.protocol, "ports": ports})  # fmt: skip
        body = f"{user} (tenant {tenant.slug}) asks for a new service {what}.\nWhy: {justification}\n"
        notify(site_admins(), NoticeKind.APPROVE, f"{tenant.slug} asks for a service {what}", body, link,
               about=tenant.pk)  # fmt: skip
    return link
