"""Moderation: audit entries, player reports, the seat's former user, voided games, and the
"Moderators" group with exactly the permissions moderation needs."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MODERATORS = "Moderators"
MODERATOR_PERMISSIONS = [
    # Browse games and their rows (read only: games change only through moderation actions).
    ("games", "view_game"), ("games", "view_seat"), ("games", "view_deal"), ("games", "view_move"),
    # The report queue: read it and resolve or dismiss reports.
    ("games", "view_report"), ("games", "change_report"),
    # The audit trail: read only, for everyone.
    ("games", "view_auditentry"),
    ("games", "moderate_game"), ("games", "inspect_hidden_state"),
    # Users: look them up, suspend them and lift suspensions (never edit them).
    ("accounts", "view_user"), ("accounts", "view_suspension"), ("accounts", "suspend_user"),
]


def create_moderators_group(apps, schema_editor):
    """Create the permissions of this migration's models (normally made after migrating) and the group."""
    from django.contrib.auth.management import create_permissions

    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=MODERATORS)
    permissions = [Permission.objects.get(content_type__app_label=app, codename=codename)
                   for app, codename in MODERATOR_PERMISSIONS]
    group.permissions.set(permissions)


def delete_moderators_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=MODERATORS).delete()


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0006_records'),
        ('accounts', '0003_suspension'),
        ('auth', '0012_alter_user_first_name_max_length'),
        ('contenttypes', '0002_remove_content_type_name'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='seat',
            name='former_user',
            field=models.ForeignKey(blank=True, help_text='The person who held this seat before a computer player took it over.', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AlterField(
            model_name='game',
            name='status',
            field=models.CharField(choices=[('open', 'Waiting for players'), ('active', 'In play'), ('finished', 'Finished'), ('aborted', 'Aborted'), ('voided', 'Voided'), ('paused', 'Paused (no player at the table)'), ('abandoned', 'Abandoned')], default='open', max_length=10),
        ),
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
                'ordering': ['-created_at', '-id'],
                'indexes': [models.Index(fields=['status', 'created_at'], name='games_repor_status_daaafd_idx')],
            },
        ),
        migrations.RunPython(create_moderators_group, delete_moderators_group),
    ]
