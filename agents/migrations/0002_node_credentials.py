# Node credentials move to their own table so they can expire, rotate and be revoked.

import datetime

import django.db.models.deletion
from django.db import migrations, models
from django.utils import timezone


def carry_over(apps, schema_editor):
    """Existing credentials keep working for one default lifetime; agents renew them before then."""
    Node = apps.get_model("agents", "Node")
    NodeCredential = apps.get_model("agents", "NodeCredential")
    expires = timezone.now() + datetime.timedelta(days=30)
    NodeCredential.objects.bulk_create(
        NodeCredential(node_id=pk, credential_hash=hashed, hint="(migrated)", expires_at=expires)
        for pk, hashed in Node.objects.exclude(credential_hash="").values_list("pk", "credential_hash")
    )


class Migration(migrations.Migration):

    dependencies = [
        ('agents', '0001_initial'),
    ]

    operations = [
        migrations.CreateModel(
            name='NodeCredential',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('credential_hash', models.CharField(editable=False, max_length=64, unique=True)),
                ('hint', models.CharField(editable=False, max_length=12)),
                ('created', models.DateTimeField(auto_now_add=True)),
                ('expires_at', models.DateTimeField(db_index=True)),
                ('node', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='credentials', to='agents.node')),
            ],
            options={
                'ordering': ['node', '-created'],
            },
        ),
        migrations.RunPython(carry_over, migrations.RunPython.noop),
        migrations.RemoveField(
            model_name='node',
            name='credential_hash',
        ),
    ]
