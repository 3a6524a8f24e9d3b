"""Router registrations of the audit API; portal/api_urls.py calls register(router)."""

from audit.api import AuditEventViewSet


def register(router) -> None:
    """Add the audit endpoints to the project's /api/v1/ router."""
    router.register("audit-events", AuditEventViewSet)
