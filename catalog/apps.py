"""The site catalog: vetted offerings researchers request clusters from."""

from django.apps import AppConfig


class CatalogConfig(AppConfig):
    name = "catalog"
    verbose_name = "Catalog"
    default_auto_field = "django.db.models.BigAutoField"
