"""Game URLs: lobby, tables, the board fragment and moves."""
from django.urls import path

from moderation import views as moderation_views
from rummy_site import converters  # noqa: F401 (registers <id:...>)

from . import views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("games/new", views.game_new, name="game_new"),
    path("games/<id:game_id>/", views.game_detail, name="game_detail"),
    path("games/<id:game_id>/board", views.game_board, name="game_board"),
    path("games/<id:game_id>/move", views.game_move, name="game_move"),
    path("games/<id:game_id>/hand-order", views.game_hand_order, name="game_hand_order"),
    path("games/<id:game_id>/join", views.game_join, name="game_join"),
    path("games/<id:game_id>/computer", views.game_add_computer, name="game_add_computer"),
    path("games/<id:game_id>/seats/<int:position>/free", views.game_free_seat, name="game_free_seat"),
    path("games/<id:game_id>/close", views.game_close, name="game_close"),
    path("games/<id:game_id>/start", views.game_start, name="game_start"),
    path("games/<id:game_id>/again", views.game_again, name="game_again"),
    path("games/<id:game_id>/leave", moderation_views.game_leave, name="game_leave"),
    path("games/<id:game_id>/report", moderation_views.game_report, name="game_report"),
    path("games/<id:game_id>/version", views.game_version, name="game_version"),
    path("games/<id:game_id>/reclaim", views.game_reclaim, name="game_reclaim"),
    path("games/mine", views.my_games, name="my_games"),
    path("join/<str:code>", views.join_by_code, name="join_by_code"),
    path("help/<slug:slug>", views.help_page, name="help"),
]
