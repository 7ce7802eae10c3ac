"""App configuration for the moderation app."""
from django.apps import AppConfig


class ModerationConfig(AppConfig):
    """Moderation: audit entries, reports and suspensions, the services that write them, and the
    moderators' admin pages and actions."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "moderation"
