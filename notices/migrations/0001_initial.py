"""Notices become their own app: notifications and connections (presence) move here from games
in the migration state only; their tables keep their names (``db_table``) and their rows. Their
content types move too, so their permissions come along."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MOVED = ["notification", "connection"]
"""The games app's models this migration moves."""


def move_content_types(apps, schema_editor):
    """Relabel the moved models' content types (and with them their permissions) as the notices app's."""
    content_types = apps.get_model("contenttypes", "ContentType").objects
    content_types.filter(app_label="games", model__in=MOVED).update(app_label="notices")
    content_types.clear_cache()


def move_content_types_back(apps, schema_editor):
    content_types = apps.get_model("contenttypes", "ContentType").objects
    content_types.filter(app_label="notices", model__in=MOVED).update(app_label="games")
    content_types.clear_cache()


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ("games", "0009_expert_bot_level"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[
            migrations.CreateModel(
                name='Connection',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('channel_name', models.CharField(max_length=200, unique=True)),
                    ('last_seen', models.DateTimeField()),
                    ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='connections', to=settings.AUTH_USER_MODEL)),
                ],
                options={
                    'db_table': 'games_connection',
                    'indexes': [models.Index(fields=['user', 'last_seen'], name='games_conne_user_id_46c555_idx')],
                },
            ),
            migrations.CreateModel(
                name='Notification',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('kind', models.CharField(choices=[('turn_badge', 'Your turn (on the site)'), ('turn_email', 'Your turn (e-mail)'), ('warning_email', 'Time running out (e-mail)'), ('abandoned_email', 'Game abandoned (e-mail)'), ('digest_email', 'Daily digest (e-mail)')], max_length=20)),
                    ('turn_number', models.PositiveIntegerField(default=0)),
                    ('day', models.DateField(blank=True, null=True)),
                    ('created_at', models.DateTimeField(auto_now_add=True)),
                    ('game', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='notifications', to='games.game')),
                    ('seat', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='games.seat')),
                    ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='notifications', to=settings.AUTH_USER_MODEL)),
                ],
                options={
                    'db_table': 'games_notification',
                    'ordering': ['-created_at'],
                    'constraints': [models.UniqueConstraint(condition=models.Q(('game__isnull', False)), fields=('game', 'seat', 'turn_number', 'kind'), name='notification_once_per_turn'), models.UniqueConstraint(condition=models.Q(('kind', 'digest_email')), fields=('user', 'day'), name='notification_one_digest_a_day')],
                },
            ),
    
        ]),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
