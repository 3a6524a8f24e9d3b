"""API base classes of the apps at or above tenants: tenant-scoped viewsets, the site-admin permission."""

from rest_framework import permissions, viewsets

from tenants.access import is_site_admin, scope


class TenantScopedViewSet(viewsets.GenericViewSet):
    """Base for tenant-owned objects: other tenants' objects simply do not exist (404)."""

    tenant_field = "tenant"

    def get_queryset(self):
        """Scope the declared queryset to the requesting user's tenants."""
        return scope(super().get_queryset(), self.request.user, self.tenant_field)


class IsSiteAdmin(permissions.BasePermission):
    """Site inventory (vCenters, hosts, PFs, node pools, nodes) is for site admins only (403 otherwise)."""

    def has_permission(self, request, view):
        return is_site_admin(request.user)


SITE_ADMIN_ONLY = [permissions.IsAuthenticated, IsSiteAdmin]
