"""Existing approved clusters were realized on "the first vCenter": record that site and their segment."""

from django.db import migrations

PLACED_STATES = ["approved", "provisioning", "ready", "degraded", "error", "decommissioning"]
RELEASED_SEGMENT_STATES = ["rejected", "retired"]


def place(apps, schema_editor):
    VirtualCluster = apps.get_model("tenants", "VirtualCluster")
    VCenter = apps.get_model("vsphere", "VCenter")
    Segment = apps.get_model("netpolicy", "Segment")
    vcenter = VCenter.objects.order_by("pk").first()  # what every code path used before placement existed
    for cluster in VirtualCluster.objects.filter(state__in=PLACED_STATES, site_kind=""):
        if vcenter is None:
            cluster.site_kind = "none"
            cluster.save(update_fields=["site_kind"])
            continue
        # The segment the old vsphere.intent.segment_vlan chose: the tenant's VLAN segment on this cluster.
        segment = (
            Segment.objects.filter(tenant_id=cluster.tenant_id, kind="vlan", vlan_id__isnull=False)
            .filter(vsphere_cluster__in=["", vcenter.compute_cluster])
            .exclude(state__in=RELEASED_SEGMENT_STATES)
            .order_by("-vsphere_cluster", "id")
            .first()
        )
        cluster.site_kind, cluster.site_id, cluster.segment_id = "vsphere", vcenter.pk, getattr(segment, "pk", None)
        cluster.save(update_fields=["site_kind", "site", "segment"])


class Migration(migrations.Migration):
    dependencies = [
        ("tenants", "0004_cluster_site_and_segment"),
        ("vsphere", "0004_vcenter_management_network"),
        ("netpolicy", "0001_initial"),
    ]

    operations = [migrations.RunPython(place, migrations.RunPython.noop)]
