"""Record, replay, deal summary and export URLs of a game."""
from django.urls import path

from . import views

urlpatterns = [
    path("games/<int:game_id>/record", views.game_record, name="game_record"),
    path("games/<int:game_id>/replay", views.game_replay, name="game_replay"),
    path("games/<int:game_id>/deals/<int:number>/summary", views.game_deal_summary, name="game_deal_summary"),
    path("games/<int:game_id>/export.json", views.game_export, name="game_export"),
]
