"""Make the audit table append-only in the database itself: UPDATE and DELETE raise."""

from django.db import migrations

FORWARD = """
CREATE FUNCTION audit_event_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'audit events are append-only (% refused)', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER audit_event_no_update BEFORE UPDATE OR DELETE ON audit_auditevent
    FOR EACH ROW EXECUTE FUNCTION audit_event_immutable();
"""
BACKWARD = """
DROP TRIGGER IF EXISTS audit_event_no_update ON audit_auditevent;
DROP FUNCTION IF EXISTS audit_event_immutable();
"""


class Migration(migrations.Migration):
    dependencies = [("audit", "0001_initial")]
    operations = [migrations.RunSQL(FORWARD, BACKWARD)]
