"""App configuration for the accounts app."""
from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """User accounts: the project's custom user model."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"
    verbose_name = "Players"  # not "Accounts": the admin heads allauth's e-mail addresses so

    def ready(self):
        from django.contrib.auth.signals import user_logged_in

        from .session_zone import on_user_logged_in

        user_logged_in.connect(on_user_logged_in, dispatch_uid="accounts.session_zone")
