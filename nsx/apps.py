"""NSX: GENEVE overlay segments and the distributed firewall of VM clusters, through the NSX Policy API."""

from django.apps import AppConfig


class NsxConfig(AppConfig):
    name = "nsx"
    verbose_name = "NSX"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from netpolicy import propagation
        from nsx.tasks import queue_policy_change

        propagation.register("nsx", queue_policy_change)
