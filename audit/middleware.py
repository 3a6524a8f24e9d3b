"""Request middleware: give every request the server's own id and make it the audit actor.

A client's X-Request-ID is recorded apart (client_request_id) and never becomes the server's id, so
a client cannot make its requests look like someone else's in the audit log.
"""

import re

from audit.context import Actor, ActorKind, acting_as, new_request_id
from core.proxies import client_address

REQUEST_ID_HEADER = "X-Request-ID"
CLIENT_ID_HEADER = "X-Client-Request-ID"
_VALID_ID = re.compile(r"[A-Za-z0-9._-]{8,64}")


def client_ip(request) -> str | None:
    """Return the client address (core.proxies: X-Forwarded-For only from ENCLAVE_TRUSTED_PROXIES)."""
    return client_address(request)


class RequestContextMiddleware:
    """Set the server's request id, keep a well-formed client X-Request-ID apart, and the acting user."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        supplied = request.headers.get(REQUEST_ID_HEADER, "")
        request.id = new_request_id()
        request.client_request_id = supplied if _VALID_ID.fullmatch(supplied) else ""
        actor = Actor(
            kind=ActorKind.USER,
            label="anonymous",
            request_id=request.id,
            client_request_id=request.client_request_id,
            source_ip=client_ip(request),
            request=request,
        )
        with acting_as(actor):
            response = self.get_response(request)
        response[REQUEST_ID_HEADER] = request.id
        if request.client_request_id:
            response[CLIENT_ID_HEADER] = request.client_request_id
        return response
