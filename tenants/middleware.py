"""Per-request memory of the signed-in user's memberships (tenants.access.tenant_ids)."""

from tenants.access import memberships_read_once


class MembershipsMiddleware:
    """Each request reads the user's memberships at most once per role; the next request reads afresh."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        with memberships_read_once():
            return self.get_response(request)
