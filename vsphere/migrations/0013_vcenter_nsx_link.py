"""The vCenter <-> NSX Manager link moves from nsx.NsxManager.vcenter onto vsphere.VCenter.nsx (issue 33)."""

import django.db.models.deletion
from django.db import migrations, models

# Databases made before the move have nsx_nsxmanager.vcenter_id (nsx 0001 created it): copy it, then drop it.
# A database made after has no such column, so both steps do nothing there and the schemas end up the same.
COPY_AND_DROP = """
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM information_schema.columns
               WHERE table_schema = current_schema() AND table_name = 'nsx_nsxmanager'
                 AND column_name = 'vcenter_id') THEN
        UPDATE vsphere_vcenter v SET nsx_id = m.id FROM nsx_nsxmanager m WHERE m.vcenter_id = v.id;
        ALTER TABLE nsx_nsxmanager DROP COLUMN vcenter_id;
    END IF;
END
$$;
"""

# Back to before the move: the column nsx 0001 used to create comes back (nullable), the links copied into it.
RESTORE = """
ALTER TABLE nsx_nsxmanager ADD COLUMN vcenter_id bigint NULL UNIQUE
    REFERENCES vsphere_vcenter (id) DEFERRABLE INITIALLY DEFERRED;
UPDATE nsx_nsxmanager m SET vcenter_id = v.id FROM vsphere_vcenter v WHERE v.nsx_id = m.id;
SET CONSTRAINTS ALL IMMEDIATE;  -- checked now: the next step alters the table, which pending checks forbid
"""


class Migration(migrations.Migration):
    dependencies = [
        ("nsx", "0001_initial"),
        ("vsphere", "0012_vf_port_guid"),
    ]

    operations = [
        migrations.AddField(
            model_name="vcenter",
            name="nsx",
            field=models.OneToOneField(
                blank=True,
                help_text="The site's NSX Manager, if one is registered",
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="vcenter",
                to="nsx.nsxmanager",
            ),
        ),
        migrations.RunSQL(COPY_AND_DROP, RESTORE, elidable=False),
    ]
