"""Audit entries and reports now belong to the moderation app, notifications and connections to
the notices app (each app's migration 0001): they leave the games app's migration state; their
tables and rows stay."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0011_drop_deal_variant_columns"),
        ("moderation", "0001_initial"),
        ("notices", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[
            migrations.DeleteModel(name="AuditEntry"),
            migrations.DeleteModel(name="Report"),
            migrations.DeleteModel(name="Notification"),
            migrations.DeleteModel(name="Connection"),
        ]),
    ]
