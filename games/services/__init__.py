"""The service layer of games: the only code that writes game rows, one module per owner.

- ``access``: finds, authorizes and locks games; a viewer's ``Board``, read from one snapshot.
- ``changes``: ``record_change``, the one place a game's version is bumped and
  ``hooks.change_accepted`` sent (the turn clock, ``games.turn_clock``, writes the clock's fields
  of games and seats on that hook; moderation writes its own rows and changes games through here).
- ``tables``: opening, joining, seats and starting. ``moves``: players' and computers' moves.

Verbs follow the contract of their name: ``access_*`` finds, authorizes and (for writes) locks;
the public verbs validate and mutate inside one transaction and send events only after commit
(``games.notify``). Every refusal is a ``games.errors.Refusal`` with an HTTP status, a stable code
and a message, raised before anything is written, so a refused request changes nothing.

The names below are the public ones, for callers that use ``services.<name>``.
"""
from .access import Board, access_board, access_deals, can_watch, lock_game
from .changes import record_change
from .moves import check_move, computer_turn, play_computer_turn, submit_move, submit_play
from .tables import (
    add_computer_player,
    close_table,
    create_table,
    join_refusal,
    join_table,
    play_again,
    remove_seat,
    start_game,
    tables_played_again,
)

__all__ = ["Board", "access_board", "access_deals", "add_computer_player", "can_watch", "check_move", "close_table",
           "computer_turn", "create_table", "join_refusal", "join_table", "lock_game", "play_again",
           "play_computer_turn", "record_change", "remove_seat", "start_game", "submit_move", "submit_play",
           "tables_played_again"]
