from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tenants", "0012_membership_source")]

    operations = [
        migrations.AddIndex(
            model_name="virtualcluster",
            index=models.Index(fields=["-created"], name="cluster_created_idx"),
        ),
    ]
