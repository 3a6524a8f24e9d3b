"""Rewrite rules naming a DN in the canonical form identity.mapping.group_key matches groups in."""

from django.db import migrations


def canonical_dns(apps, schema_editor):
    """A rule that names no valid DN can match nothing any more; it is kept (and shown) as it was."""
    from identity.mapping import group_key

    rule_model = apps.get_model("identity", "GroupRule")
    for rule in rule_model.objects.filter(group__contains="=").order_by("pk"):
        key = group_key(rule.group)
        if key is None or key == rule.group:
            continue
        twin = rule_model.objects.filter(group=key, action=rule.action, tenant_slug=rule.tenant_slug)
        if twin.exists():  # the same rule spelled twice: one is enough
            rule.delete()
        else:
            rule.group = key
            rule.save(update_fields=["group"])


class Migration(migrations.Migration):
    dependencies = [("identity", "0003_directory_subject")]

    operations = [migrations.RunPython(canonical_dns, migrations.RunPython.noop)]
