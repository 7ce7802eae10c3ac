"""The project's user model."""
from django.contrib.auth.models import AbstractUser


class User(AbstractUser):
    """A site user. Custom from the first migration so fields can be added later without pain."""
