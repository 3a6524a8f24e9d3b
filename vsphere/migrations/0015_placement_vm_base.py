"""A placed cluster holds its VM base name, unique on the site: no two clusters can be approved onto the same VMs.

Placements of live clusters get theirs here. Where two live clusters already share one (the clash this closes),
the first placed keeps it and the other is left without: its next approval would be refused, as it should be.
"""

from django.db import migrations, models

RELEASED_STATES = ["rejected", "retired"]


def hold_bases(apps, schema_editor):
    """Each live placement's tenant slug and cluster name, as vsphere.naming.vm_base joins them (first one wins)."""
    Placement = apps.get_model("vsphere", "Placement")
    placements = (
        Placement.objects.exclude(cluster__state__in=RELEASED_STATES)
        .select_related("cluster__tenant")
        .order_by("cluster_id")
    )
    held = set()
    for placement in placements.iterator():
        base = f"{placement.cluster.tenant.slug}-{placement.cluster.name}"
        if base not in held:
            held.add(base)
            Placement.objects.filter(pk=placement.pk).update(vm_base=base)


class Migration(migrations.Migration):
    dependencies = [
        ("tenants", "0014_virtualcluster_cluster_waiting_idx"),
        ("vsphere", "0014_placement"),
    ]

    operations = [
        migrations.AddField(
            model_name="placement",
            name="vm_base",
            field=models.CharField(blank=True, editable=False, max_length=127, null=True),
        ),
        migrations.RunPython(hold_bases, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="placement",
            constraint=models.UniqueConstraint(fields=("vm_base",), name="placement_vm_base_unique"),
        ),
    ]
