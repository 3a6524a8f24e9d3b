"""Network intent: pools, segments, firewall policy and its compilers."""

from django.apps import AppConfig


class NetpolicyConfig(AppConfig):
    name = "netpolicy"
    verbose_name = "Network policy"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        """Hook the default isolation policy into tenant creation."""
        from netpolicy import receivers  # noqa: F401
