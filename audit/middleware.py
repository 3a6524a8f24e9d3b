"""Request middleware: give every request an id and make it the audit actor."""

import re

from audit.context import Actor, ActorKind, acting_as, new_request_id

REQUEST_ID_HEADER = "X-Request-ID"
_VALID_ID = re.compile(r"^[A-Za-z0-9._-]{8,64}$")


def client_ip(request) -> str | None:
    """Return the client address (REMOTE_ADDR; a proxy in front must set it correctly)."""
    return request.META.get("REMOTE_ADDR") or None


class RequestContextMiddleware:
    """Set the request id (taken from X-Request-ID when well-formed) and the acting user."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        supplied = request.headers.get(REQUEST_ID_HEADER, "")
        request.id = supplied if _VALID_ID.match(supplied) else new_request_id()
        actor = Actor(
            kind=ActorKind.USER,
            label="anonymous",
            request_id=request.id,
            source_ip=client_ip(request),
            request=request,
        )
        with acting_as(actor):
            response = self.get_response(request)
        response[REQUEST_ID_HEADER] = request.id
        return response
