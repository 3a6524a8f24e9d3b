"""Database-enforced address plan: a VM address is a host of its segment's subnet, never its gateway."""

from django.db import migrations

FORWARD = """
CREATE FUNCTION netpolicy_address_in_subnet() RETURNS trigger AS $$
DECLARE
    net cidr;
    gw inet;
BEGIN
    SELECT subnet, gateway INTO net, gw FROM netpolicy_segment WHERE id = NEW.segment_id;
    IF masklen(NEW.address) <> (CASE family(NEW.address) WHEN 4 THEN 32 ELSE 128 END)
            OR NOT (NEW.address << net) THEN
        RAISE EXCEPTION 'address % is not a host of segment subnet %', NEW.address, net
            USING ERRCODE = 'check_violation';
    END IF;
    IF host(NEW.address) = host(network(net)) OR host(NEW.address) = host(gw)
            OR (family(net) = 4 AND masklen(net) < 31 AND host(NEW.address) = host(broadcast(net))) THEN
        RAISE EXCEPTION 'address % is the network, broadcast or gateway address of %', NEW.address, net
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER netpolicy_address_in_subnet BEFORE INSERT OR UPDATE OF address, segment_id ON netpolicy_address
    FOR EACH ROW EXECUTE FUNCTION netpolicy_address_in_subnet();
"""

BACKWARD = """
DROP TRIGGER IF EXISTS netpolicy_address_in_subnet ON netpolicy_address;
DROP FUNCTION IF EXISTS netpolicy_address_in_subnet();
"""


class Migration(migrations.Migration):
    dependencies = [("netpolicy", "0004_site_settings_and_addresses")]

    operations = [migrations.RunSQL(FORWARD, BACKWARD)]
