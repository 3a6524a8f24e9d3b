"""Catalog items, versions that PostgreSQL keeps immutable, and cluster origins."""

import django.core.validators
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


IMMUTABLE = """
CREATE FUNCTION catalog_version_immutable() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'catalog item versions cannot change; changing an item makes a new version'
        USING ERRCODE = 'check_violation';
END $$ LANGUAGE plpgsql;
CREATE TRIGGER catalog_version_immutable BEFORE UPDATE OR DELETE ON catalog_catalogitemversion
    FOR EACH ROW EXECUTE FUNCTION catalog_version_immutable();
"""
MUTABLE = """
DROP TRIGGER IF EXISTS catalog_version_immutable ON catalog_catalogitemversion;
DROP FUNCTION IF EXISTS catalog_version_immutable();
"""


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('tenants', '0007_cluster_devices'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='CatalogItem',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('slug', models.CharField(max_length=63, unique=True, validators=[django.core.validators.RegexValidator('^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$', 'Use 1-63 lowercase letters, digits or hyphens, starting and ending with a letter or digit.')])),
                ('visibility', models.CharField(choices=[('all', 'Every tenant'), ('tenants', 'Only the listed tenants')], default='all', max_length=16)),
                ('active', models.BooleanField(default=True, help_text='Retired items cannot be requested; clusters keep theirs')),
                ('created', models.DateTimeField(auto_now_add=True)),
                ('tenants', models.ManyToManyField(blank=True, related_name='catalog_items', to='tenants.tenant')),
            ],
            options={
                'ordering': ['slug'],
            },
        ),
        migrations.CreateModel(
            name='CatalogItemVersion',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveIntegerField()),
                ('name', models.CharField(max_length=100)),
                ('summary', models.CharField(blank=True, max_length=200)),
                ('description', models.TextField(blank=True, help_text='What it is for and its trade-offs', max_length=8000)),
                ('rules', models.JSONField(default=dict, help_text='Presets, bounds and what researchers may change')),
                ('max_lease_days', models.PositiveIntegerField(blank=True, null=True, validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(3650)])),
                ('created', models.DateTimeField(auto_now_add=True)),
                ('created_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('item', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='versions', to='catalog.catalogitem')),
            ],
            options={
                'ordering': ['item', '-number'],
            },
        ),
        migrations.AddField(
            model_name='catalogitem',
            name='current',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='catalog.catalogitemversion'),
        ),
        migrations.CreateModel(
            name='ClusterOrigin',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('values', models.JSONField(default=dict)),
                ('created', models.DateTimeField(auto_now_add=True)),
                ('cluster', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='catalog_origin', to='tenants.virtualcluster')),
                ('version', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='requests', to='catalog.catalogitemversion')),
            ],
        ),
        migrations.AddConstraint(
            model_name='catalogitemversion',
            constraint=models.UniqueConstraint(fields=('item', 'number'), name='catalog_version_unique'),
        ),
        migrations.RunSQL(IMMUTABLE, MUTABLE),
    ]
