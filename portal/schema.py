"""Who may read the OpenAPI schema and the API docs (ENCLAVE_API_SCHEMA_ACCESS)."""

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from rest_framework import permissions

from tenants.api_base import IsSiteAdmin

ACCESS = {
    "staff": [permissions.IsAuthenticated, IsSiteAdmin],
    "authenticated": [permissions.IsAuthenticated],
    "public": [permissions.AllowAny],
}


def schema_permissions() -> list:
    """The permission classes for the schema and docs views (site admins by default)."""
    try:
        return ACCESS[settings.API_SCHEMA_ACCESS]
    except KeyError:
        raise ImproperlyConfigured(f"ENCLAVE_API_SCHEMA_ACCESS must be one of {', '.join(ACCESS)}") from None
