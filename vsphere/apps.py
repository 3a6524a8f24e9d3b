"""vSphere site integration: inventory, SR-IOV capacity, reconcilers."""

from django.apps import AppConfig


class VsphereConfig(AppConfig):
    name = "vsphere"
    verbose_name = "vSphere"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from tenants import offers
        from vsphere import receivers  # noqa: F401  (connects the approval hooks)
        from vsphere.capabilities import VSphereOffers

        offers.register(VSphereOffers())
