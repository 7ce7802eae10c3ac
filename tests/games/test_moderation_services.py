"""moderation.services: each moderator action works for a moderator, is refused (403, nothing
written) for an ordinary player, writes one audit row, and the one seat-to-computer handover keeps
the seat's cards and lets the computer play on."""
import pytest

from games import services
from games.errors import Refusal
from games.models import Game, Move, Seat
from moderation import services as moderation
from moderation.models import AuditEntry, Report, Suspension
from records.models import PlayerResult, Rating, RatingChange
from tests.factories import (
    hand_keys,
    load_state,
    make_started_game,
    make_table,
    make_user,
    play_moves,
    run_due_jobs,
    seat_to_move,
    seats_of,
    snapshot,
)
from tests.moderators import make_moderator, moderators_group
from tests.records.helpers import people_game

pytestmark = pytest.mark.django_db

REASON = "Abusive chat and stalling."


def refusal_of(call, *args) -> Refusal:
    with pytest.raises(Refusal) as caught:
        call(*args)
    return caught.value


def test_moderators_group_has_exactly_the_moderation_permissions():
    codenames = set(moderators_group().permissions.values_list(
        "content_type__app_label", "codename"))
    assert codenames == {
        ("games", "view_game"), ("games", "view_seat"), ("games", "view_deal"), ("games", "view_move"),
        ("moderation", "view_report"), ("moderation", "change_report"), ("moderation", "view_auditentry"),
        ("moderation", "moderate_game"), ("moderation", "inspect_hidden_state"),
        ("accounts", "view_user"), ("moderation", "view_suspension"), ("moderation", "suspend_user"),
    }
    moderator = make_moderator()
    assert moderator.is_staff and not moderator.is_superuser
    assert not moderator.has_perm("accounts.change_user") and not moderator.has_perm("games.change_game")
    assert not moderator.has_perm("moderation.change_auditentry")
    assert not moderator.has_perm("moderation.delete_auditentry")


def test_abort_game_in_play():
    game = make_started_game(players=2, humans=1, seed="abort")
    moderator = make_moderator()
    before_version = game.version
    moderation.abort_game(moderator, game.pk, REASON)
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and game.version == before_version + 1
    entry = AuditEntry.objects.get()
    assert (entry.actor, entry.action, entry.reason, entry.game) == (moderator, "abort_game", REASON, game)
    # An aborted game cannot be aborted again, and its player's move is refused.
    assert refusal_of(moderation.abort_game, moderator, game.pk, REASON).status == 409
    mover = seat_to_move(game)
    assert refusal_of(services.submit_move, mover.user, game.pk, game.version, {"type": "draw_stock"}).status == 409


def test_abort_sends_the_change_event_after_commit(django_capture_on_commit_callbacks, monkeypatch):
    game = make_started_game(players=2, humans=1, seed="abort-event")
    sent = []
    monkeypatch.setattr("games.notify.game_changed", lambda game_id, version: sent.append((game_id, version)))
    with django_capture_on_commit_callbacks(execute=True):
        moderation.abort_game(make_moderator(), game.pk, REASON)
    assert sent == [(game.pk, game.version + 1)]


def test_void_only_a_finished_game():
    game = make_started_game(players=2, humans=1, seed="void", options={"target": 1})
    moderator = make_moderator()
    assert refusal_of(moderation.void_game, moderator, game.pk, REASON).code == "not_finished"
    play_moves(game)
    assert game.status == Game.Status.FINISHED and PlayerResult.objects.filter(game=game).count() == 1
    moderation.void_game(moderator, game.pk, REASON)
    game.refresh_from_db()
    assert game.status == Game.Status.VOIDED
    assert list(AuditEntry.objects.values_list("action", flat=True)) == ["void_game"]
    # It counts for nothing: its result leaves the match history (records.services.void_game_record).
    assert not PlayerResult.objects.filter(game=game).exists()
    assert refusal_of(moderation.void_game, moderator, game.pk, REASON).code == "already_voided"


def test_an_ordinary_player_cannot_void_their_finished_rated_game():
    game = people_game("standard", humans=2, seed="void-refused")
    player = seats_of(game)[0].user
    results = list(PlayerResult.objects.filter(game=game).order_by("user_id").values())
    ratings = list(Rating.objects.order_by("user_id").values("user_id", "mu", "sigma", "games"))
    changes = list(RatingChange.objects.filter(game=game).order_by("user_id").values())
    assert len(results) == len(ratings) == len(changes) == 2
    refusal = refusal_of(moderation.void_game, player, game.pk, REASON)
    assert (refusal.status, refusal.code) == (403, "not_moderator")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and not AuditEntry.objects.exists()
    assert list(PlayerResult.objects.filter(game=game).order_by("user_id").values()) == results
    assert list(Rating.objects.order_by("user_id").values("user_id", "mu", "sigma", "games")) == ratings
    assert list(RatingChange.objects.filter(game=game).order_by("user_id").values()) == changes


def test_a_reason_is_required():
    game = make_started_game(players=2, humans=1, seed="reason")
    before = snapshot(game)
    refusal = refusal_of(moderation.abort_game, make_moderator(), game.pk, "   ")
    assert (refusal.status, refusal.code) == (400, "reason_required")
    assert snapshot(game) == before and not AuditEntry.objects.exists()


def test_replace_seat_keeps_the_cards_and_the_computer_plays_on():
    game = make_started_game(players=2, seed="replace")
    seat = seat_to_move(game)
    person, cards = seat.user, hand_keys(game, seat)
    moderation.hand_seat_to_computer(make_moderator(), game.pk, seat.position, REASON)
    run_due_jobs()
    seat.refresh_from_db()
    assert seat.user is None and seat.is_bot and seat.former_user == person
    # It was this seat's turn: the worker's computer move has played it (and kept the cards it was dealt).
    first = Move.objects.filter(seat=seat, actor=Move.Actor.COMPUTER).order_by("ply").first()
    assert first is not None
    assert first.action["type"] in ("draw_stock", "take_discard")
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.target_user, entry.details) == ("replace_seat", person, {"position": seat.position})
    # The computer drew to the hand it was given: every card the person held is still in it or
    # was played by the computer afterwards.
    played = {key for move in Move.objects.filter(seat=seat) for key in _cards_of(move.action)}
    assert cards <= hand_keys(game, seat) | played


def _cards_of(action: dict) -> list[str]:
    return [action["card"]] if "card" in action else list(action.get("cards", []))


def test_handover_keeps_the_hand_when_it_is_not_the_seats_turn():
    game = make_started_game(players=2, seed="keep-hand")
    waiting = next(s for s in seats_of(game) if s.position != seat_to_move(game).position)
    cards = hand_keys(game, waiting)
    moderation.hand_seat_to_computer(make_moderator(), game.pk, waiting.position, REASON)
    waiting.refresh_from_db()
    assert waiting.is_bot and hand_keys(game, waiting) == cards


def test_remove_player_in_play_and_at_a_waiting_table():
    moderator = make_moderator()
    game = make_started_game(players=3, humans=2, seed="remove")
    seat = seats_of(game)[1]
    moderation.remove_player(moderator, game.pk, 1, REASON)
    seat.refresh_from_db()
    assert seat.is_bot and seat.former_user is not None

    table = make_table(players=3)
    guest = make_user()
    services.join_table(guest, table.pk)
    moderation.remove_player(moderator, table.pk, 1, REASON)
    assert not table.seats.filter(user=guest).exists()
    table.refresh_from_db()
    assert table.status == Game.Status.OPEN
    moderation.remove_player(moderator, table.pk, 0, REASON)  # the creator: the table is aborted
    table.refresh_from_db()
    assert table.status == Game.Status.ABORTED
    assert AuditEntry.objects.filter(action="remove_player").count() == 3


def test_resend_turn_notification_sends_the_current_version(django_capture_on_commit_callbacks, monkeypatch):
    game = make_started_game(players=2, humans=1, seed="resend")
    sent = []
    monkeypatch.setattr("games.notify.game_changed", lambda game_id, version: sent.append((game_id, version)))
    before = snapshot(game)
    with django_capture_on_commit_callbacks(execute=True):
        moderation.resend_turn_notification(make_moderator(), game.pk, "Player says the page is stuck.")
    assert sent == [(game.pk, game.version)]
    assert snapshot(game) == before
    assert AuditEntry.objects.get().details == {"version": game.version}


def test_inspect_hidden_state_shows_every_hand_and_the_stock_and_is_audited():
    game = make_started_game(players=2, seed="inspect")
    hidden = moderation.inspect_hidden_state(make_moderator(), game.pk, "Suspected collusion.")
    seats = seats_of(game)
    assert [name for name, _ in hidden.hands] == [s.name for s in seats]
    for (_, hand), seat in zip(hidden.hands, seats):
        assert {c.key for c in hand} == hand_keys(game, seat)
    state = load_state(game)
    assert [c.key for c in hidden.stock] == [c.key for c in reversed(state.deal.stock)]
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.reason, entry.details) == ("inspect_hidden", "Suspected collusion.", {"deal": 1})


def test_suspend_hands_every_seat_to_a_computer_and_unsuspend_restores_the_account():
    moderator = make_moderator()
    ana = make_user("ana")
    playing = make_started_game(players=2, humans=[ana, "ben"], seed="suspend")
    own_table = make_table(ana, players=2)
    other_table = make_table(players=3)
    services.join_table(ana, other_table.pk)

    suspension = moderation.suspend_user(moderator, ana.pk, REASON)
    ana.refresh_from_db()
    assert not ana.is_active and suspension.reason == REASON and suspension.suspended_by == moderator
    seat = Seat.objects.get(game=playing, former_user=ana)
    assert seat.is_bot and seat.user is None
    own_table.refresh_from_db()
    assert own_table.status == Game.Status.ABORTED and not own_table.seats.filter(user=ana).exists()
    assert other_table.seats.count() == 1
    assert not Seat.objects.filter(user=ana).exists()
    assert AuditEntry.objects.filter(action="suspend_user", target_user=ana).count() == 4
    assert refusal_of(moderation.suspend_user, moderator, ana.pk, REASON).code == "already_suspended"

    moderation.unsuspend_user(moderator, ana.pk, "Apologised.")
    ana.refresh_from_db()
    suspension.refresh_from_db()
    assert ana.is_active and suspension.lifted_by == moderator and suspension.lift_reason == "Apologised."
    assert not Suspension.objects.filter(user=ana, lifted_at=None).exists()
    assert refusal_of(moderation.unsuspend_user, moderator, ana.pk, REASON).code == "not_suspended"


def test_moderators_cannot_suspend_themselves_staff_or_superusers():
    moderator = make_moderator()
    other = make_moderator()
    admin = make_user()
    admin.is_superuser = True
    admin.save()
    for target in (moderator, other, admin):
        assert refusal_of(moderation.suspend_user, moderator, target.pk, REASON).status == 403
    assert not Suspension.objects.exists()


def test_reports_queue_and_closing():
    game = make_started_game(players=2, humans=["cat", "dan"], seed="report")
    cat, dan = (s.user for s in seats_of(game))
    report = moderation.file_report(cat, game.pk, "Insults in the chat.", dan.pk)
    assert (report.status, report.reported_user, report.reporter) == ("open", dan, cat)
    about_game = moderation.file_report(cat, game.pk, "The game froze.")
    assert about_game.reported_user is None
    assert refusal_of(moderation.file_report, cat, game.pk, "me", cat.pk).code == "not_a_player"
    assert refusal_of(moderation.file_report, cat, game.pk, "stranger", make_user().pk).code == "not_a_player"
    assert refusal_of(moderation.file_report, cat, game.pk, "").code == "reason_required"

    moderator = make_moderator()
    moderation.resolve_report(moderator, report.pk, "Warned the player.")
    moderation.dismiss_report(moderator, about_game.pk, "Could not reproduce.")
    report.refresh_from_db()
    about_game.refresh_from_db()
    assert (report.status, report.handled_by, report.note) == ("resolved", moderator, "Warned the player.")
    assert about_game.status == "dismissed"
    assert refusal_of(moderation.resolve_report, moderator, report.pk, "again").code == "report_closed"
    assert list(AuditEntry.objects.order_by("id").values_list("action", flat=True)) == [
        "resolve_report", "dismiss_report"]


def test_a_private_game_cannot_be_reported_by_an_outsider():
    game = make_started_game(players=2, humans=1, seed="private-report", is_private=True)
    refusal = refusal_of(moderation.file_report, make_user(), game.pk, "Cheating.")
    assert refusal.status == 404 and not Report.objects.exists()


def test_an_ordinary_player_can_do_no_moderator_action_and_nothing_is_written():
    game = make_started_game(players=2, seed="ordinary")
    player = seats_of(game)[0].user
    other = seats_of(game)[1].user
    report = moderation.file_report(player, game.pk, "Slow.", other.pk)
    before = snapshot(game)
    calls = [
        (moderation.abort_game, player, game.pk, REASON),
        (moderation.void_game, player, game.pk, REASON),
        (moderation.resend_turn_notification, player, game.pk, REASON),
        (moderation.hand_seat_to_computer, player, game.pk, 1, REASON),
        (moderation.hand_seat_to_computer, player, game.pk, 0, REASON),
        (moderation.remove_player, player, game.pk, 1, REASON),
        (moderation.inspect_hidden_state, player, game.pk, REASON),
        (moderation.suspend_user, player, other.pk, REASON),
        (moderation.unsuspend_user, player, other.pk, REASON),
        (moderation.resolve_report, player, report.pk, REASON),
        (moderation.dismiss_report, player, report.pk, REASON),
    ]
    for call, *args in calls:
        refusal = refusal_of(call, *args)
        assert (refusal.status, refusal.code) == (403, "not_moderator"), call.__name__
    assert snapshot(game) == before
    assert not AuditEntry.objects.exists() and not Suspension.objects.exists()
    other.refresh_from_db()
    assert other.is_active
    report.refresh_from_db()
    assert report.status == "open"


def removal_emails(mailoutbox) -> list[tuple[list[str], str, str]]:
    return [(message.to, message.subject, message.body) for message in mailoutbox if "removed" in message.subject]


def test_a_person_a_moderator_takes_out_is_told_by_email_once_the_removal_commits(mailoutbox):
    moderator = make_moderator()
    game = make_started_game(players=3, humans=3, seed="told")
    replaced, removed = seats_of(game)[1].user, seats_of(game)[2].user
    moderation.hand_seat_to_computer(moderator, game.pk, 1, REASON)
    moderation.remove_player(moderator, game.pk, 2, REASON)
    table = make_table(players=3)
    guest = make_user()
    services.join_table(guest, table.pk)
    moderation.remove_player(moderator, table.pk, 1, REASON)
    assert removal_emails(mailoutbox) == []  # queued with the removal, sent by the job worker

    run_due_jobs()

    told = removal_emails(mailoutbox)
    assert [(to, subject) for to, subject, _ in told] == [
        ([replaced.email], f"You were removed from {game}"), ([removed.email], f"You were removed from {game}"),
        ([guest.email], f"You were removed from {table}")]
    assert "A computer player now plays your seat" in told[0][2]
    assert "Your seat at the table has been freed" in told[2][2]
    assert all(REASON not in body for _, _, body in told)  # the reason is the moderators' own


def test_the_removal_email_says_when_the_removal_stopped_the_game_or_closed_the_table(mailoutbox):
    moderator = make_moderator()
    game = make_started_game(players=2, humans=1, seed="told-stopped")
    table = make_table(players=3)
    moderation.remove_player(moderator, game.pk, 0, REASON)
    moderation.remove_player(moderator, table.pk, 0, REASON)  # its creator: the table is closed
    run_due_jobs()
    bodies = [body for _, _, body in removal_emails(mailoutbox)]
    assert "The game has been stopped: no one else was left to play." in bodies[0]
    assert "The table has been closed." in bodies[1]
    assert not any("computer player now plays" in body or "freed" in body for body in bodies)


def test_a_refused_removal_a_player_who_leaves_or_a_suspension_sends_no_removal_email(mailoutbox):
    game = make_started_game(players=4, humans=4, seed="not-told")
    player = seats_of(game)[0].user
    refusal_of(moderation.remove_player, player, game.pk, 1, REASON)
    moderation.leave_game(seats_of(game)[2].user, game.pk)
    moderation.suspend_user(make_moderator(), seats_of(game)[3].user.pk, REASON)
    run_due_jobs()
    assert removal_emails(mailoutbox) == []


def test_leave_game_is_the_same_handover_for_the_players_own_seat():
    game = make_started_game(players=2, seed="leave")
    seat = next(s for s in seats_of(game) if s.position != seat_to_move(game).position)
    person, cards = seat.user, hand_keys(game, seat)
    stranger = make_user()
    assert refusal_of(moderation.leave_game, stranger, game.pk).status == 403
    # Another player's seat cannot be given away with LEAVE_GAME.
    mover = seat_to_move(game)
    refusal = refusal_of(moderation.hand_seat_to_computer, mover.user, game.pk, seat.position, "bye",
                         AuditEntry.Action.LEAVE_GAME)
    assert refusal.status == 403
    moderation.leave_game(person, game.pk)
    seat.refresh_from_db()
    assert seat.is_bot and seat.former_user == person
    entry = AuditEntry.objects.get()
    assert (entry.actor, entry.action, entry.target_user) == (person, "leave_game", person)
    assert hand_keys(game, seat) == cards  # not its turn: the computer holds the hand as it was
    assert refusal_of(moderation.leave_game, person, game.pk).status == 403


def test_audit_entries_are_never_changed_or_deleted():
    game = make_started_game(players=2, humans=1, seed="audit")
    moderation.abort_game(make_moderator(), game.pk, REASON)
    entry = AuditEntry.objects.get()
    entry.reason = "Something else."
    with pytest.raises(PermissionError):
        entry.save()
    with pytest.raises(PermissionError):
        entry.delete()
    with pytest.raises(PermissionError):
        AuditEntry.objects.filter(pk=entry.pk).update(reason="Edited.")
    with pytest.raises(PermissionError):
        AuditEntry.objects.all().delete()
    assert AuditEntry.objects.get().reason == REASON


def test_a_game_left_with_no_people_is_aborted_not_played_out():
    game = make_started_game(players=2, humans=1, seed="last-person")
    person = seats_of(game)[0].user
    moves = Move.objects.filter(game=game).count()
    moderation.leave_game(person, game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert Move.objects.filter(game=game).count() == moves
    assert AuditEntry.objects.get().details == {"position": 0, "aborted": "no people left at the table"}


def test_a_paused_game_can_be_moderated_its_suspended_players_seat_goes_to_a_computer():
    moderator = make_moderator()
    ana = make_user("ana")
    paused = make_started_game(players=3, humans=[ana, "ben"], seed="paused")
    paused.seats.filter(user__isnull=False).update(autopilot=True)
    Game.objects.filter(pk=paused.pk).update(status=Game.Status.PAUSED)

    moderation.suspend_user(moderator, ana.pk, REASON)
    assert Seat.objects.get(game=paused, former_user=ana).is_bot
    paused.refresh_from_db()
    assert paused.status == Game.Status.PAUSED

    moderation.abort_game(moderator, paused.pk, REASON)
    paused.refresh_from_db()
    assert paused.status == Game.Status.ABORTED
