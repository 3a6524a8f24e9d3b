"""Device inventory (GPUs, passthrough devices, vGPU profiles, DPUs, host features) and its capacity in PostgreSQL."""

import django.contrib.postgres.constraints
import django.contrib.postgres.operations
import django.core.validators
import django.db.models.deletion
import django.db.models.functions.comparison
from django.db import migrations, models


FORWARD = """
CREATE FUNCTION vsphere_device_slot_within_capacity() RETURNS trigger AS $$
DECLARE
    dev vsphere_pcidevice%ROWTYPE;
    prof vsphere_vgpuprofile%ROWTYPE;
BEGIN
    SELECT * INTO dev FROM vsphere_pcidevice WHERE id = NEW.device_id;
    IF NEW.profile_id IS NULL THEN
        IF dev.mode <> 'passthrough' OR NEW.slot <> 0 THEN
            RAISE EXCEPTION 'device % is not free for DirectPath I/O (mode %, slot %)', NEW.device_id, dev.mode, NEW.slot
                USING ERRCODE = 'check_violation';
        END IF;
        RETURN NEW;
    END IF;
    SELECT * INTO prof FROM vsphere_vgpuprofile WHERE id = NEW.profile_id;
    IF dev.mode <> 'vgpu' OR prof.device_vendor_id <> ((dev.device_id::bigint << 16) | dev.vendor_id) THEN
        RAISE EXCEPTION 'vGPU profile % does not fit device %', prof.name, NEW.device_id
            USING ERRCODE = 'check_violation';
    END IF;
    IF NEW.slot >= prof.per_gpu THEN
        RAISE EXCEPTION 'vGPU slot % is beyond the % instances of % one GPU holds', NEW.slot, prof.per_gpu, prof.name
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER vsphere_device_slot_within_capacity BEFORE INSERT OR UPDATE ON vsphere_deviceassignment
    FOR EACH ROW EXECUTE FUNCTION vsphere_device_slot_within_capacity();

CREATE FUNCTION vsphere_device_keeps_assignments() RETURNS trigger AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM vsphere_deviceassignment WHERE device_id = NEW.id) THEN
        RAISE EXCEPTION 'device % is assigned to clusters; its mode and type cannot change', NEW.id
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER vsphere_device_keeps_assignments BEFORE UPDATE OF mode, vendor_id, device_id ON vsphere_pcidevice
    FOR EACH ROW WHEN (OLD.mode IS DISTINCT FROM NEW.mode OR OLD.vendor_id IS DISTINCT FROM NEW.vendor_id
                       OR OLD.device_id IS DISTINCT FROM NEW.device_id)
    EXECUTE FUNCTION vsphere_device_keeps_assignments();

CREATE FUNCTION vsphere_profile_keeps_slots() RETURNS trigger AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM vsphere_deviceassignment WHERE profile_id = NEW.id AND slot >= NEW.per_gpu) THEN
        RAISE EXCEPTION 'vGPU profile % still has instances at or above %', NEW.name, NEW.per_gpu
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER vsphere_profile_keeps_slots BEFORE UPDATE OF per_gpu ON vsphere_vgpuprofile
    FOR EACH ROW EXECUTE FUNCTION vsphere_profile_keeps_slots();
"""

BACKWARD = """
DROP TRIGGER IF EXISTS vsphere_profile_keeps_slots ON vsphere_vgpuprofile;
DROP FUNCTION IF EXISTS vsphere_profile_keeps_slots();
DROP TRIGGER IF EXISTS vsphere_device_keeps_assignments ON vsphere_pcidevice;
DROP FUNCTION IF EXISTS vsphere_device_keeps_assignments();
DROP TRIGGER IF EXISTS vsphere_device_slot_within_capacity ON vsphere_deviceassignment;
DROP FUNCTION IF EXISTS vsphere_device_slot_within_capacity();
"""


class Migration(migrations.Migration):

    dependencies = [
        ('tenants', '0007_cluster_devices'),
        ('vsphere', '0005_plan_preview'),
    ]

    operations = [
        # The one-profile-per-GPU exclusion constraint mixes '=' and '<>' on plain columns.
        django.contrib.postgres.operations.BtreeGistExtension(),
        migrations.CreateModel(
            name='HostFeatures',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('pvrdma_vmknic', models.CharField(blank=True, help_text='VMkernel adapter tagged for PVRDMA', max_length=32)),
                ('pvrdma_vmknic_exists', models.BooleanField(default=False, help_text='The tagged adapter exists on the host')),
                ('pvrdma_firewall', models.BooleanField(default=False, help_text='The pvrdma firewall ruleset is enabled')),
                ('ens', models.BooleanField(default=False, help_text='The site switch runs the enhanced data path (ENS) here')),
                ('network_offload', models.BooleanField(default=False, help_text='The site switch offloads to a DPU here')),
                ('discovered', models.DateTimeField(blank=True, null=True)),
                ('host', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='features', to='vsphere.host')),
            ],
        ),
        migrations.CreateModel(
            name='PCIDevice',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('pci_id', models.CharField(max_length=12, validators=[django.core.validators.RegexValidator('^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7]$', 'Use a PCI id like 0000:3b:00.0.')])),
                ('kind', models.CharField(choices=[('gpu', 'GPU'), ('network', 'Network adapter'), ('other', 'Other PCI device')], max_length=16)),
                ('mode', models.CharField(choices=[('passthrough', 'DirectPath I/O (whole device)'), ('vgpu', 'NVIDIA vGPU (shared)')], max_length=16)),
                ('vendor_id', models.PositiveIntegerField(validators=[django.core.validators.MaxValueValidator(65535)])),
                ('device_id', models.PositiveIntegerField(validators=[django.core.validators.MaxValueValidator(65535)])),
                ('vendor_name', models.CharField(blank=True, max_length=120)),
                ('device_name', models.CharField(blank=True, max_length=120)),
                ('memory_gib', models.PositiveIntegerField(default=0, help_text='GPU memory (framebuffer)')),
                ('system_id', models.CharField(blank=True, help_text="The host's system id for DirectPath backing", max_length=64)),
                ('source', models.CharField(choices=[('discovered', 'Discovered from vCenter'), ('manual', 'Entered by an admin')], default='discovered', max_length=16)),
                ('discovered', models.DateTimeField(blank=True, null=True)),
                ('host', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='devices', to='vsphere.host')),
            ],
            options={
                'ordering': ['host__name', 'pci_id'],
            },
        ),
        migrations.CreateModel(
            name='VGPUProfile',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=64, validators=[django.core.validators.RegexValidator('^[A-Za-z0-9][A-Za-z0-9_.:+-]{0,63}$', 'Use letters, digits and _ . : + - (1-64).')])),
                ('device_vendor_id', models.BigIntegerField(help_text='GPU type: PCI device id << 16 | vendor id')),
                ('gpu_model', models.CharField(blank=True, max_length=120)),
                ('framebuffer_gib', models.PositiveIntegerField()),
                ('per_gpu', models.PositiveSmallIntegerField(help_text='Instances one GPU holds (GPU memory / framebuffer)')),
                ('profile_class', models.CharField(blank=True, max_length=32)),
                ('discovered', models.DateTimeField(blank=True, null=True)),
                ('vcenter', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='vgpu_profiles', to='vsphere.vcenter')),
            ],
            options={
                'ordering': ['vcenter', 'framebuffer_gib', 'name'],
            },
        ),
        migrations.CreateModel(
            name='DeviceAssignment',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('slot', models.PositiveSmallIntegerField()),
                ('node_name', models.CharField(max_length=120)),
                ('created', models.DateTimeField(auto_now_add=True)),
                ('cluster', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='device_assignments', to='tenants.virtualcluster')),
                ('device', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='assignments', to='vsphere.pcidevice')),
                ('profile', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='vsphere.vgpuprofile')),
            ],
            options={
                'ordering': ['device', 'slot'],
            },
        ),
        migrations.CreateModel(
            name='DPU',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('dpu_id', models.CharField(max_length=64, validators=[django.core.validators.RegexValidator('^[A-Za-z0-9][A-Za-z0-9_.:+-]{0,63}$', 'Use letters, digits and _ . : + - (1-64).')])),
                ('model', models.CharField(blank=True, max_length=120)),
                ('pnic', models.CharField(max_length=32)),
                ('discovered', models.DateTimeField(blank=True, null=True)),
                ('host', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='dpus', to='vsphere.host')),
            ],
            options={
                'ordering': ['host__name', 'dpu_id'],
                'constraints': [models.UniqueConstraint(fields=('host', 'dpu_id'), name='dpu_unique_per_host')],
            },
        ),
        migrations.AddConstraint(
            model_name='pcidevice',
            constraint=models.UniqueConstraint(fields=('host', 'pci_id'), name='pcidevice_unique_per_host'),
        ),
        migrations.AddConstraint(
            model_name='pcidevice',
            constraint=models.CheckConstraint(condition=models.Q(('mode', 'passthrough'), ('kind', 'gpu'), _connector='OR'), name='pcidevice_only_gpus_share'),
        ),
        migrations.AddConstraint(
            model_name='vgpuprofile',
            constraint=models.UniqueConstraint(fields=('vcenter', 'name'), name='vgpuprofile_unique_per_vcenter'),
        ),
        migrations.AddConstraint(
            model_name='vgpuprofile',
            constraint=models.CheckConstraint(condition=models.Q(('per_gpu__gte', 1)), name='vgpuprofile_holds_one'),
        ),
        migrations.AddConstraint(
            model_name='deviceassignment',
            constraint=models.UniqueConstraint(fields=('device', 'slot'), name='device_slot_unique'),
        ),
        migrations.AddConstraint(
            model_name='deviceassignment',
            constraint=models.UniqueConstraint(fields=('cluster', 'node_name', 'device'), name='device_once_per_node'),
        ),
        migrations.AddConstraint(
            model_name='deviceassignment',
            constraint=django.contrib.postgres.constraints.ExclusionConstraint(expressions=[('device', '='), (django.db.models.functions.comparison.Coalesce('profile', 0), '<>')], name='device_one_profile_per_gpu'),
        ),
        migrations.RunSQL(FORWARD, BACKWARD),
    ]
