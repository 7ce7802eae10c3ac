"""App configuration for the games app."""
from django.apps import AppConfig


class GamesConfig(AppConfig):
    """The games app: rules engine, game rows, services, pages and websockets."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self):
        from . import hooks, turn_clock
        from .socket_lifetime import connect_signals

        connect_signals()
        hooks.change_accepted.connect(turn_clock.on_change_accepted, dispatch_uid="turn_clock")

