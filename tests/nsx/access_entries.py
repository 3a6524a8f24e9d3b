"""The nsx app's routes in the access matrix (merged by tests/access.py)."""

NSX_MATRIX = {
    "nsxmanager-list": ("get", "admin", None),
    "nsxmanager-detail": ("get", "admin", "nsx_manager"),
    "nsxmanager-check": ("post", "admin", "nsx_manager"),
    "nsx:manager-check": ("post", "admin", "nsx_manager"),
    "nsxobject-list": ("get", "list", "nsx_object_a"),
    "nsxobject-detail": ("get", "detail", "nsx_object_a"),
}
NSX_EXEMPT: set = set()


def add_nsx_objects(objects) -> None:
    """The vCenter's NSX Manager (nothing listens at its URL) and one object of tenant A's in it."""
    from nsx.models import NsxManager, NsxObject

    objects.nsx_manager = NsxManager.objects.create(
        url="https://127.0.0.1:9", username="admin", password="p",
        transport_zone_path="/infra/sites/default/enforcement-points/default/transport-zones/tz",
    )  # fmt: skip
    type(objects.vcenter).objects.filter(pk=objects.vcenter.pk).update(nsx=objects.nsx_manager)
    objects.nsx_object_a = NsxObject.objects.create(
        manager=objects.nsx_manager, tenant=objects.tenant_a, kind="tier1",
        path=f"/infra/tier-1s/enclave-t{objects.tenant_a.pk}",
    )  # fmt: skip
