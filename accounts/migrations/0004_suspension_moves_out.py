"""Suspensions now belong to the moderation app (its migration 0001): they leave the accounts
app's migration state; their table and rows stay."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0003_suspension"),
        ("moderation", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[
            migrations.DeleteModel(name="Suspension"),
        ]),
    ]
