"""App configuration for the games app."""
from django.apps import AppConfig


class GamesConfig(AppConfig):
    """The games app: rules engine, game rows, services, pages and websockets."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
