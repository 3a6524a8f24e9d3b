"""Tenants app configuration."""

from django.apps import AppConfig


class TenantsConfig(AppConfig):
    """Tenants (research groups), memberships, quotas and virtual cluster requests."""

    name = "tenants"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        """Answer the registries of the apps below: whose tenants a reader belongs to (audit, notices)."""
        from audit import readers
        from notices import services as notices
        from tenants import access

        readers.TENANTS_OF["tenants"] = access.tenant_ids
        notices.TENANT_MEMBERS["tenants"] = access.members_among
