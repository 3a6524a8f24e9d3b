"""Rewrite group addresses stored before the strict grammar (core.addresses) into canonical networks.

Scope ids and whitespace are dropped, as the nft compiler already did when it loaded them on nodes; a value
that is no network at all could never have compiled and is removed. Each change is printed.
"""

import ipaddress
import re

from django.db import migrations

SCOPE = re.compile(r"%[^/]*")


def _canonical(text):
    cleaned = SCOPE.sub("", "".join(str(text).split()))
    try:
        return str(ipaddress.ip_network(cleaned, strict=True))
    except ValueError:
        return None


def canonicalize(apps, schema_editor):
    Group = apps.get_model("netpolicy", "Group")
    for group in Group.objects.exclude(cidrs=[]).iterator():
        fixed = [c for c in (_canonical(t) for t in group.cidrs) if c is not None]
        fixed = list(dict.fromkeys(fixed))
        if fixed != group.cidrs:
            print(f"\n  netpolicy: group {group.pk} ({group.name}): {group.cidrs!r} -> {fixed!r}")
            Group.objects.filter(pk=group.pk).update(cidrs=fixed)


class Migration(migrations.Migration):
    dependencies = [("netpolicy", "0001_initial")]

    operations = [migrations.RunPython(canonicalize, migrations.RunPython.noop)]
