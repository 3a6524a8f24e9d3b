"""Placed clusters from before placement existed: moved to vsphere 0014 (which places them on the first vCenter).

Kept as a no-op so databases that applied it and those that did not share one history (issue 33: tenants
no longer depends on vsphere or netpolicy).
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tenants", "0004_cluster_site_and_segment")]

    operations = []
