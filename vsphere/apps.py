"""vSphere site integration: inventory, SR-IOV capacity, reconcilers."""

from django.apps import AppConfig


class VsphereConfig(AppConfig):
    name = "vsphere"
    verbose_name = "vSphere"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        """Approval reaches vCenter through this realizer (tenants.realizers), looked up by site kind."""
        from tenants import realizers
        from vsphere.realizer import VSphereRealizer

        realizers.register(VSphereRealizer())
