"""Record, replay, deal summary and export URLs of a game."""
from django.urls import path

from rummy_site import converters  # noqa: F401 (registers <id:...>)

from . import views

urlpatterns = [
    path("games/<id:game_id>/record", views.game_record, name="game_record"),
    path("games/<id:game_id>/replay", views.game_replay, name="game_replay"),
    path("games/<id:game_id>/deals/<int:number>/summary", views.game_deal_summary, name="game_deal_summary"),
    path("games/<id:game_id>/export.json", views.game_export, name="game_export"),
]
