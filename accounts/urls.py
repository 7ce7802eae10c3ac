"""Player pages: profile and match history."""
from django.urls import path

from . import views

urlpatterns = [
    path("<str:username>/", views.profile, name="profile"),
    path("<str:username>/games", views.match_history, name="match_history"),
]
