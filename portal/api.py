"""API base classes shared by every app: tenant-scoped viewsets."""

from rest_framework import viewsets

from tenants.access import scope


class TenantScopedViewSet(viewsets.GenericViewSet):
    """Base for tenant-owned objects: other tenants' objects simply do not exist (404)."""

    tenant_field = "tenant"

    def get_queryset(self):
        """Scope the declared queryset to the requesting user's tenants."""
        return scope(super().get_queryset(), self.request.user, self.tenant_field)
