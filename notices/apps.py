"""App configuration for the notices app."""
from django.apps import AppConfig


class NoticesConfig(AppConfig):
    """Telling players: the "your turn" badge and notice, presence (open sockets), and the e-mails
    (your turn, time running out, game abandoned, removed by a moderator, daily digest). Hooks onto the turn clock's and
    the services' signals (``games.hooks``)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "notices"

    def ready(self):
        from games import hooks

        from . import services

        hooks.change_accepted.connect(services.on_change_accepted, dispatch_uid="notices")
        hooks.turn_started.connect(services.on_turn_started, dispatch_uid="notices")
        hooks.game_abandoned.connect(services.on_game_abandoned, dispatch_uid="notices")
        hooks.player_removed.connect(services.on_player_removed, dispatch_uid="notices")
