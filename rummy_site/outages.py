"""Logging for a dependency that stops answering (Redis, the channel layer): one warning when the
first call fails, none for the calls that fail after it, and one line when a call succeeds again,
so an outage under load leaves two lines in the log rather than a traceback per request or event."""
from __future__ import annotations

import logging
import time


def summary(error: BaseException) -> str:
    """``"<class>: <first line of the message>"``: an error in one log line, without traceback."""
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0]}" if lines else type(error).__name__


class Outage:
    """The up/down state of one dependency in this process, as seen by its callers.

    ``what`` names the dependency ("channel layer") and ``meanwhile`` says what the site does while
    it is down ("events are dropped"); both go into the warning. ``retry_after`` (seconds) is how
    long callers that ask ``resting`` leave it alone after a failed call.
    """

    def __init__(self, logger: logging.Logger, what: str, meanwhile: str, retry_after: float = 0.0):
        self.logger = logger
        self.what = what
        self.meanwhile = meanwhile
        self.retry_after = retry_after
        self.down = False
        self.failed_at = 0.0

    def resting(self) -> bool:
        """True while the dependency is down and its last call failed less than ``retry_after``
        seconds ago: the caller should not try it, so a dependency that hangs costs its timeout
        once per ``retry_after`` rather than on every call."""
        return self.down and time.monotonic() - self.failed_at < self.retry_after

    def failed(self, error: BaseException) -> None:
        """Record a failed call; log a warning (no traceback) if it is the first since an answer."""
        self.failed_at = time.monotonic()
        if not self.down:
            self.down = True
            self.logger.warning("%s unreachable (%s); %s until it answers again.", self.what, summary(error),
                                self.meanwhile)

    def answered(self) -> None:
        """Record a successful call; log that the dependency is back if it was down."""
        if self.down:
            self.down = False
            self.logger.warning("%s answers again.", self.what)
