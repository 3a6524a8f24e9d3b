"""A cluster's site and segment move from tenants_virtualcluster into vsphere.Placement (issue 33).

tenants sits below vsphere and netpolicy, so its migrations no longer add those columns: a database made from
them has none, one made before has them with data. Copy them into the placement, then drop them (with their
indexes and foreign keys); the placement's own foreign key indexes serve the lookups by site and by segment.
Clusters placed before placement existed (what tenants 0005 did, now a no-op) are placed here where it never ran.
"""

import django.db.models.deletion
from django.db import migrations, models

COPY_THEN_DROP = """
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM information_schema.columns
               WHERE table_schema = current_schema() AND table_name = 'tenants_virtualcluster'
                 AND column_name = 'site_id') THEN
        INSERT INTO vsphere_placement (cluster_id, site_id, segment_id)
            SELECT id, site_id, segment_id FROM tenants_virtualcluster
            WHERE site_id IS NOT NULL OR segment_id IS NOT NULL;
        ALTER TABLE tenants_virtualcluster DROP COLUMN site_id, DROP COLUMN segment_id;
    END IF;
END
$$;
"""

# Back to before the move: the columns old tenants 0004 created come back (nullable), the placements copied in.
ADD_BACK_THEN_COPY = """
ALTER TABLE tenants_virtualcluster
    ADD COLUMN site_id bigint NULL REFERENCES vsphere_vcenter (id) DEFERRABLE INITIALLY DEFERRED,
    ADD COLUMN segment_id bigint NULL REFERENCES netpolicy_segment (id) DEFERRABLE INITIALLY DEFERRED;
CREATE INDEX tenants_virtualcluster_site_id ON tenants_virtualcluster (site_id);
CREATE INDEX tenants_virtualcluster_segment_id ON tenants_virtualcluster (segment_id);
UPDATE tenants_virtualcluster c SET site_id = p.site_id, segment_id = p.segment_id
    FROM vsphere_placement p WHERE p.cluster_id = c.id;
SET CONSTRAINTS ALL IMMEDIATE;  -- checked now: the next step drops a table, which pending checks forbid
"""

PLACED_STATES = ["approved", "provisioning", "ready", "degraded", "error", "decommissioning"]
RELEASED_SEGMENT_STATES = ["rejected", "retired"]


def place_unplaced(apps, schema_editor):
    """What tenants 0005 did, for a database that never ran it: the first vCenter and the tenant's VLAN segment."""
    VirtualCluster = apps.get_model("tenants", "VirtualCluster")
    Placement, VCenter = apps.get_model("vsphere", "Placement"), apps.get_model("vsphere", "VCenter")
    Segment = apps.get_model("netpolicy", "Segment")
    vcenter = VCenter.objects.order_by("pk").first()  # what every code path used before placement existed
    for cluster in VirtualCluster.objects.filter(state__in=PLACED_STATES, site_kind=""):
        cluster.site_kind = "vsphere" if vcenter else "none"
        cluster.save(update_fields=["site_kind"])
        if vcenter is None:
            continue
        segment = (
            Segment.objects.filter(tenant_id=cluster.tenant_id, kind="vlan", vlan_id__isnull=False)
            .filter(vsphere_cluster__in=["", vcenter.compute_cluster])
            .exclude(state__in=RELEASED_SEGMENT_STATES)
            .order_by("-vsphere_cluster", "id")
            .first()
        )
        Placement.objects.update_or_create(cluster=cluster, defaults={"site": vcenter, "segment": segment})


class Migration(migrations.Migration):
    dependencies = [
        ("netpolicy", "0011_sitesettings_network_generation_and_more"),
        ("tenants", "0014_virtualcluster_cluster_waiting_idx"),
        ("vsphere", "0013_vcenter_nsx_link"),
    ]

    operations = [
        migrations.CreateModel(
            name="Placement",
            fields=[
                ("cluster", models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True,
                                                 related_name="placement", serialize=False,
                                                 to="tenants.virtualcluster")),
                ("site", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT,
                                           related_name="placements", to="vsphere.vcenter")),
                ("segment", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT,
                                              related_name="placements", to="netpolicy.segment")),
            ],
        ),  # fmt: skip
        migrations.RunSQL(COPY_THEN_DROP, ADD_BACK_THEN_COPY),
        migrations.RunPython(place_unplaced, migrations.RunPython.noop),
    ]
