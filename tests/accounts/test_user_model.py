"""The custom user model and its admin."""
import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.db.migrations.loader import MigrationLoader

from accounts.models import User


def test_auth_user_model_is_the_custom_user():
    assert get_user_model() is User


def test_user_is_created_by_the_first_accounts_migration():
    loader = MigrationLoader(None, ignore_no_migrations=True)
    first = loader.get_migration("accounts", "0001_initial")
    created = [operation.name for operation in first.operations if hasattr(operation, "fields")]
    assert created == ["User"]


def test_user_is_registered_with_user_admin():
    assert isinstance(admin.site._registry[User], UserAdmin)


@pytest.mark.django_db
def test_admin_user_list_renders(admin_client):
    response = admin_client.get("/admin/accounts/user/")
    assert response.status_code == 200
