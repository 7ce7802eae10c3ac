"""Models moved between apps keep their rows: a database at the schema from before the move
(audit entries, reports, notifications and connections in games, suspensions in accounts), holding
a game, a report, an audit entry, a suspension, a notification and a connection, migrated forward,
finds every row through the models as they are now, and the permissions of the moved models, with
the groups holding them, move along."""
import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.models import Game
from moderation.models import AuditEntry, Report, Suspension
from notices.models import Connection, Notification

MOVES_OUT = [("games", "0012_moderation_and_notices_move_out"), ("accounts", "0004_suspension_moves_out")]
"""The migrations that take the moved models out of their former apps."""
NEW_APPS = ("moderation", "notices")
"""The apps the models moved into."""


def _before_the_move(executor: MigrationExecutor) -> list[tuple[str, str | None]]:
    """Migration targets of the schema before the move: each former app at the parent of the
    migration that moves its models out, and none of the new apps."""
    graph = executor.loader.graph
    parents = {parent for key in MOVES_OUT for parent in graph.node_map[key].parents}
    return [parent.key for parent in parents if parent.key[0] not in NEW_APPS] + [(app, None) for app in NEW_APPS]


def _write_rows(apps) -> dict[str, int]:
    """A game with a seat, a report, an audit entry, a suspension, a notification, a connection and a
    group holding moderation permissions, written through the historical models; their ids by kind."""
    user_model = apps.get_model("accounts", "User")
    reporter = user_model.objects.create(username="old-reporter", password="!")
    suspended = user_model.objects.create(username="old-suspended", password="!", is_active=False)
    game = apps.get_model("games", "Game").objects.create(variant="standard", players=2, created_by=reporter,
                                                           invite_code="moved-rows", seed="0" * 32)
    seat = apps.get_model("games", "Seat").objects.create(game=game, position=0, user=reporter)
    report = apps.get_model("games", "Report").objects.create(reporter=reporter, game=game, reported_user=suspended,
                                                              reason="Rude in chat.")
    entry = apps.get_model("games", "AuditEntry").objects.create(actor=reporter, action="abort_game",
                                                                 reason="Stuck.", game=game, details={"position": 1})
    suspension = apps.get_model("accounts", "Suspension").objects.create(user=suspended, reason="Spam.",
                                                                         suspended_by=reporter)
    notification = apps.get_model("games", "Notification").objects.create(user=reporter, kind="turn_email", game=game,
                                                                          seat=seat, turn_number=3)
    connection_row = apps.get_model("games", "Connection").objects.create(user=reporter, channel_name="old.socket",
                                                                          last_seen="2026-03-02T12:00:00Z")
    permission = apps.get_model("auth", "Permission").objects
    group = apps.get_model("auth", "Group").objects.create(name="Old moderators")
    group.permissions.set([permission.get(content_type__app_label="games", codename="moderate_game"),
                           permission.get(content_type__app_label="games", codename="change_report"),
                           permission.get(content_type__app_label="accounts", codename="suspend_user")])
    group.user_set.add(reporter)
    return {"game": game.pk, "report": report.pk, "entry": entry.pk, "suspension": suspension.pk,
            "notification": notification.pk, "connection": connection_row.pk, "user": reporter.pk,
            "suspended": suspended.pk}


@pytest.mark.django_db(transaction=True)
def test_rows_written_before_the_move_are_found_through_the_moved_models():
    executor = MigrationExecutor(connection)
    before = _before_the_move(executor)
    executor.migrate(before)
    ids = _write_rows(executor.loader.project_state([key for key in before if key[1]]).apps)

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    game = Game.objects.get(pk=ids["game"])
    report = Report.objects.get(pk=ids["report"])
    assert (report.game, report.reporter_id, report.reported_user_id, report.reason, report.status) == \
        (game, ids["user"], ids["suspended"], "Rude in chat.", Report.Status.OPEN)
    entry = AuditEntry.objects.get(pk=ids["entry"])
    assert (entry.game, entry.action, entry.details) == (game, AuditEntry.Action.ABORT_GAME, {"position": 1})
    suspension = Suspension.objects.get(pk=ids["suspension"])
    assert (suspension.user_id, suspension.lifted_at, suspension.reason) == (ids["suspended"], None, "Spam.")
    assert Notification.objects.get(pk=ids["notification"]).game == game
    assert Connection.objects.get(pk=ids["connection"]).channel_name == "old.socket"
    assert list(game.reports.all()) == [report] and list(game.audit_entries.all()) == [entry]

    group = Group.objects.get(name="Old moderators")
    assert set(group.permissions.values_list("content_type__app_label", "codename")) == {
        ("moderation", "moderate_game"), ("moderation", "change_report"), ("moderation", "suspend_user")}
    holder = get_user_model().objects.get(pk=ids["user"])
    assert holder.has_perm("moderation.moderate_game") and holder.has_perm("moderation.suspend_user")
