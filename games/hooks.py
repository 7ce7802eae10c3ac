"""What a finished change tells the rest of the site: signals the services and the turn clock
send, so the turn clock, the notices and the records hook onto a change instead of being called
by it. Each app connects its receivers in its ``AppConfig.ready``.

Every signal is sent with ``sender=Game`` inside the transaction of the change, the game row
locked; receivers write in that transaction and send events only after commit.
"""
from django.dispatch import Signal

change_accepted = Signal()
"""A change of a game was accepted (``services.record_change``): its ``version`` is bumped and
the row not yet saved, so receivers may set fields of ``game`` that are saved with it.

Keyword arguments: ``game``; ``seats``, the game's seats in position order (None when not loaded);
``rows``, a move's ``store.LoadedGame`` (None for other changes); ``mover``, the Seat whose person
made the move (None for computer moves and other changes)."""

game_finished = Signal()
"""A game was played to its end: ``game`` (status finished, ``finished_at`` set) and ``seats``
with their final ``place`` and ``total``."""

game_voided = Signal()
"""A moderator voided the finished ``game``: its result counts for nothing."""

turn_started = Signal()
"""A person's turn began (``turn_clock``): ``game``, ``seats``, ``seat`` to move, ``rows`` (as
for ``change_accepted``), ``now`` and ``stopped``, the (start, end) spans during which the turn's
clock stands still. Each receiver returns a list of ``(task, args)`` jobs, queued with the turn's
expiry in one INSERT (``job_queue.enqueue_together``)."""

game_abandoned = Signal()
"""A paused ``game`` was abandoned (``turn_clock``). Each receiver returns a list of e-mails
(``EmailMessage``), sent once the abandoning transaction has committed."""

player_removed = Signal()
"""A moderator took ``person`` out of ``game``: ``seat_kept`` True when a computer player took
their seat in a game in play, False when their seat at a table still waiting was freed."""
