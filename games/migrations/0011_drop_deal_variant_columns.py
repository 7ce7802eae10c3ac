"""Drop the per-variant Deal columns that 0010 copied into Deal.variant_state."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0010_deal_variant_state"),
    ]

    operations = [
        migrations.RemoveField(model_name="deal", name="laid_down"),
        migrations.RemoveField(model_name="deal", name="pending"),
        migrations.RemoveField(model_name="deal", name="wild_rank"),
    ]
