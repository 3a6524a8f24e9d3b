"""Token scopes (existing tokens keep write, which they had) and the password stamp of their users."""

import hashlib

from django.db import migrations, models


def stamp_existing(apps, schema_editor):
    """Existing tokens stay valid until their user's password next changes."""
    APIToken = apps.get_model("users", "APIToken")
    for token in APIToken.objects.select_related("user").iterator():
        stamp = hashlib.sha256(f"enclave-token-stamp:{token.user.password}".encode()).hexdigest()
        APIToken.objects.filter(pk=token.pk).update(stamp=stamp)


class Migration(migrations.Migration):

    dependencies = [
        ('users', '0002_posixaccount'),
    ]

    operations = [
        migrations.AddField(
            model_name='apitoken',
            name='scope',
            field=models.CharField(choices=[('read', 'Read only'), ('write', 'Read and write')], default='write', max_length=8),
            preserve_default=False,
        ),
        migrations.AlterField(
            model_name='apitoken',
            name='scope',
            field=models.CharField(choices=[('read', 'Read only'), ('write', 'Read and write')], default='read', max_length=8),
        ),
        migrations.AddField(
            model_name='apitoken',
            name='stamp',
            field=models.CharField(blank=True, editable=False, max_length=64),
        ),
        migrations.RunPython(stamp_existing, migrations.RunPython.noop),
    ]
