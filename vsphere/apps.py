"""vSphere site integration: inventory, SR-IOV capacity, reconcilers."""

from django.apps import AppConfig


class VsphereConfig(AppConfig):
    name = "vsphere"
    verbose_name = "vSphere"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        """Approval reaches vCenter through this realizer (tenants.realizers), looked up by site kind."""
        from netpolicy import propagation
        from tenants import realizers
        from vsphere.realizer import VSphereRealizer
        from vsphere.tasks import queue_filter_push

        realizers.register(VSphereRealizer())
        # Policy and derived-address changes reach the tenants' port-group filters.
        propagation.register("vsphere-filters", queue_filter_push)
