"""App configuration for the records app."""
from django.apps import AppConfig


class RecordsConfig(AppConfig):
    """Match history, game records, replays, exports, verifiable shuffles and ratings."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "records"
