"""App configuration for the accounts app."""
from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """User accounts: the project's custom user model."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"
    verbose_name = "Players"  # not "Accounts": the admin heads allauth's e-mail addresses so
