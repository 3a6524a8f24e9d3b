"""Database-enforced VF capacity: a slot must be below its PF's enabled VFs (max_vfs)."""

from django.db import migrations

FORWARD = """
CREATE FUNCTION vsphere_vf_slot_within_pf() RETURNS trigger AS $$
BEGIN
    IF NEW.slot >= (SELECT max_vfs FROM vsphere_physicalfunction WHERE id = NEW.pf_id) THEN
        RAISE EXCEPTION 'VF slot % is beyond the enabled VFs of PF %', NEW.slot, NEW.pf_id
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER vsphere_vf_slot_within_pf BEFORE INSERT OR UPDATE ON vsphere_vfassignment
    FOR EACH ROW EXECUTE FUNCTION vsphere_vf_slot_within_pf();

CREATE FUNCTION vsphere_pf_keeps_assigned_slots() RETURNS trigger AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM vsphere_vfassignment WHERE pf_id = NEW.id AND slot >= NEW.max_vfs) THEN
        RAISE EXCEPTION 'PF % still has VFs assigned at or above %', NEW.id, NEW.max_vfs
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER vsphere_pf_keeps_assigned_slots BEFORE UPDATE OF max_vfs ON vsphere_physicalfunction
    FOR EACH ROW EXECUTE FUNCTION vsphere_pf_keeps_assigned_slots();
"""

BACKWARD = """
DROP TRIGGER IF EXISTS vsphere_pf_keeps_assigned_slots ON vsphere_physicalfunction;
DROP FUNCTION IF EXISTS vsphere_pf_keeps_assigned_slots();
DROP TRIGGER IF EXISTS vsphere_vf_slot_within_pf ON vsphere_vfassignment;
DROP FUNCTION IF EXISTS vsphere_vf_slot_within_pf();
"""


class Migration(migrations.Migration):
    dependencies = [("vsphere", "0001_initial")]

    operations = [migrations.RunSQL(FORWARD, BACKWARD)]
