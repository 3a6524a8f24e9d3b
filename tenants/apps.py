"""Tenants app configuration."""

from django.apps import AppConfig


class TenantsConfig(AppConfig):
    """Tenants (research groups), memberships, quotas and virtual cluster requests."""

    name = "tenants"
    default_auto_field = "django.db.models.BigAutoField"
