"""The site catalog: vetted offerings researchers request clusters from."""

from django.apps import AppConfig


class CatalogConfig(AppConfig):
    name = "catalog"
    verbose_name = "Catalog"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        """Keep catalog clusters within their item version's bounds: register the checks the tenants services call."""
        from catalog import bounds
        from tenants import hooks

        hooks.CHANGE_CHECKS["catalog-bounds"] = bounds.check_change
        hooks.LEASE_LIMITS["catalog-lease-limit"] = bounds.lease_limit
