from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("netpolicy", "0007_fullmatch_grammars")]

    operations = [
        migrations.AddIndex(
            model_name="firewallpolicy",
            index=models.Index(fields=["sequence", "id"], name="policy_order_idx"),
        ),
    ]
