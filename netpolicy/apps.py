"""Network intent: pools, segments, firewall policy and its compilers."""

from django.apps import AppConfig


class NetpolicyConfig(AppConfig):
    name = "netpolicy"
    verbose_name = "Network policy"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        """Hook the default isolation policy into tenant creation; count segment requests in the approvals."""
        from netpolicy import receivers, segments  # noqa: F401  (receivers: the default policy)
        from tenants import notifications

        notifications.ADMIN_WAITING["segments"] = segments.waiting_for_admin
