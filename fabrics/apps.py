"""InfiniBand fabrics: subnet managers, partition keys per tenant, and the fabric agents' channel."""

from django.apps import AppConfig


class FabricsConfig(AppConfig):
    name = "fabrics"
    verbose_name = "InfiniBand fabrics"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        """Hook into the layers below without them importing this app (tests/test_layers.py)."""
        from fabrics import hooks, schema  # noqa: F401 - schema registers the credential's OpenAPI scheme

        hooks.register()
