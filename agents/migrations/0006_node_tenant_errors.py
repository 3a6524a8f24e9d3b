"""Each tenant's errors apart from the node's own; last_error written before held every tenant's, by slug."""

from django.db import migrations, models

KEPT = 20


def split_errors(apps, schema_editor):
    """Rebuild both from the last report of each node whose tenants reported errors (the text that names them)."""
    Node = apps.get_model("agents", "Node")
    for node in Node.objects.exclude(last_error="").iterator(chunk_size=200):
        report = node.last_report or {}
        node.tenant_errors = {str(tid): list(t.get("errors") or [])[:KEPT]
                              for tid, t in (report.get("tenants") or {}).items() if t.get("errors")}  # fmt: skip
        if not node.tenant_errors:
            continue  # a revoked or silent node's own words, or its own errors: nobody's tenant
        node.last_error = "\n".join(report.get("node_errors") or [])[:4000]
        node.save(update_fields=["last_error", "tenant_errors"])


class Migration(migrations.Migration):
    dependencies = [
        ("agents", "0005_tenantpart_site_digest_tenantpart_site_refs"),
    ]

    operations = [
        migrations.AddField(
            model_name="node",
            name="tenant_errors",
            field=models.JSONField(blank=True, default=dict, help_text='{"<tenant id>": ["error", ...]}'),
        ),
        migrations.RunPython(split_errors, migrations.RunPython.noop),
    ]
