"""Logging filters for the console handler (settings.LOGGING)."""
from __future__ import annotations

import logging


class SuspiciousRequestAsWarning(logging.Filter):
    """Turn Django's ``django.security.*`` records into one WARNING line without a traceback.

    Django logs every ``SuspiciousOperation`` there at ERROR with its traceback, but each is a
    request it refused with 400 (an admin filter the page does not offer, an oversized form, a
    forged session key...): bad input, answered, not a server error. The record is changed in
    place, so the handlers after this one see it the same way.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name.startswith("django.security.") and record.levelno > logging.WARNING:
            record.levelno, record.levelname = logging.WARNING, logging.getLevelName(logging.WARNING)
            record.exc_info = record.exc_text = None
        return True


class RefusedRequestWithoutTraceback(logging.Filter):
    """Drop the traceback from Django's ``django.request`` line for a request answered 4xx.

    Django logs a refused request (403 ``PermissionDenied``, e.g. a moderator without a
    permission in the admin; 404 ``Http404``) at WARNING with the exception's traceback: the
    request was answered as meant, so its one line ("Forbidden (Permission denied): /path") says
    all there is to say. The record is changed in place, as in ``SuspiciousRequestAsWarning``.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if record.name == "django.request" and isinstance(status, int) and 400 <= status < 500:
            record.exc_info = record.exc_text = None
        return True
