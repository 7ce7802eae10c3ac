"""App configuration for the records app."""
from django.apps import AppConfig


class RecordsConfig(AppConfig):
    """Match history, game records, replays, exports, verifiable shuffles and ratings."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "records"

    def ready(self):
        from games import hooks

        from . import services

        hooks.game_finished.connect(services.on_game_finished, dispatch_uid="records")
        hooks.game_voided.connect(services.on_game_voided, dispatch_uid="records")
