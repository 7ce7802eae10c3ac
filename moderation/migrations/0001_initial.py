"""Moderation becomes its own app: audit entries and reports (from games) and suspensions (from
accounts) move here in the migration state only; their tables keep their names (``db_table``)
and their rows. Their content types move too, so their permissions, and the Moderators group
that holds them, come along (``moderation.moderate_game`` was ``games.moderate_game``)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MOVED = [("games", "auditentry"), ("games", "report"), ("accounts", "suspension")]
"""(former app label, model) of each model this migration moves."""


def move_content_types(apps, schema_editor):
    """Relabel the moved models' content types (and with them their permissions) as moderation's."""
    content_types = apps.get_model("contenttypes", "ContentType").objects
    for app_label, model in MOVED:
        content_types.filter(app_label=app_label, model=model).update(app_label="moderation")
    content_types.clear_cache()


def move_content_types_back(apps, schema_editor):
    content_types = apps.get_model("contenttypes", "ContentType").objects
    for app_label, model in MOVED:
        content_types.filter(app_label="moderation", model=model).update(app_label=app_label)
    content_types.clear_cache()


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ("games", "0009_expert_bot_level"),
        ("accounts", "0003_suspension"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[
            migrations.CreateModel(
                name='AuditEntry',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('action', models.CharField(choices=[('abort_game', 'Abort game'), ('void_game', 'Void game'), ('replace_seat', 'Replace seat with a computer player'), ('remove_player', 'Remove player'), ('leave_game', 'Player left the game'), ('suspend_user', 'Suspend user'), ('unsuspend_user', 'Lift suspension'), ('resend_turn', 'Re-send turn notification'), ('inspect_hidden', 'Inspect hidden state'), ('resolve_report', 'Resolve report'), ('dismiss_report', 'Dismiss report')], max_length=20)),
                    ('reason', models.TextField()),
                    ('details', models.JSONField(blank=True, default=dict)),
                    ('created_at', models.DateTimeField(auto_now_add=True)),
                    ('actor', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ('game', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='audit_entries', to='games.game')),
                    ('target_user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                ],
                options={
                    'verbose_name_plural': 'audit entries',
                    'db_table': 'games_auditentry',
                    'ordering': ['-created_at', '-id'],
                    'permissions': [('moderate_game', 'Can abort or void games, hand seats to computers and re-send turn notifications'), ('inspect_hidden_state', 'Can inspect the hidden state of a game (hands, stock order)')],
                },
            ),
            migrations.CreateModel(
                name='Report',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('reason', models.TextField(max_length=1000)),
                    ('status', models.CharField(choices=[('open', 'Open'), ('resolved', 'Resolved'), ('dismissed', 'Dismissed')], default='open', max_length=10)),
                    ('created_at', models.DateTimeField(auto_now_add=True)),
                    ('handled_at', models.DateTimeField(blank=True, null=True)),
                    ('note', models.TextField(blank=True)),
                    ('game', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='reports', to='games.game')),
                    ('handled_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ('reported_user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='reports_received', to=settings.AUTH_USER_MODEL)),
                    ('reporter', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='reports_made', to=settings.AUTH_USER_MODEL)),
                ],
                options={
                    'db_table': 'games_report',
                    'ordering': ['-created_at', '-id'],
                    'indexes': [models.Index(fields=['status', 'created_at'], name='games_repor_status_daaafd_idx')],
                },
            ),
            migrations.CreateModel(
                name='Suspension',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('reason', models.TextField()),
                    ('created_at', models.DateTimeField(auto_now_add=True)),
                    ('lifted_at', models.DateTimeField(blank=True, null=True)),
                    ('lift_reason', models.TextField(blank=True)),
                    ('lifted_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ('suspended_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ('user', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='suspensions', to=settings.AUTH_USER_MODEL)),
                ],
                options={
                    'db_table': 'accounts_suspension',
                    'ordering': ['-created_at', '-id'],
                    'permissions': [('suspend_user', 'Can suspend users and lift suspensions')],
                    'constraints': [models.UniqueConstraint(condition=models.Q(('lifted_at', None)), fields=('user',), name='suspension_one_in_force_per_user')],
                },
            ),
        ]),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
