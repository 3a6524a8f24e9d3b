"""The site catalog: vetted offerings researchers request clusters from."""

from django.apps import AppConfig


class CatalogConfig(AppConfig):
    name = "catalog"
    verbose_name = "Catalog"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from catalog import bounds  # noqa: F401  (its receivers keep catalog clusters within their item's bounds)
